import { randomUUID } from 'node:crypto';
import type { QuestionDeclared } from '@openq/contracts';
import { recordStatements } from '@openq/persistence';
import { useServiceDatabase } from '@openq/testing';
import { saveDeclaredQuestion } from '../commands/enqueue-notifications/from-wire';
import { NOTIFIER_MIGRATIONS } from '../migrations';
import { KNOWN_QUESTION_COLUMNS, loadQuestions, toKnownQuestion, type QuestionRow } from './questions.store';

/*
 * What the notifier keeps of a question is the declaration's and never changes, so a question it
 * kept or read is remembered: a fact naming only remembered questions costs no read, and gets
 * exactly what a read of the table gives.
 */

const store = useServiceDatabase('notifier', NOTIFIER_MIGRATIONS, { prefix: 'openq_notifier_known_int' });

function declared(questionId: string): QuestionDeclared {
  return {
    questionId,
    sessionId: 's1',
    sessionAuthorId: 'ana',
    autor: 'arquiteto',
    pergunta: 'Which retention applies to the archive?',
    sugestao: '90 days',
    afeta: { regras: ['R-1'], historias: [], tarefas: ['T-7'] },
    origin: 'agent',
    declaredAt: '2026-12-06T02:00:00.000Z',
  } as unknown as QuestionDeclared;
}

/** `loadQuestions` in a transaction of its own, with the statements it sent. */
async function load(projectId: string, ids: string[]) {
  const { value: known, sent } = await recordStatements(store.ds, () =>
    store.ds.transaction((m) => loadQuestions(m, projectId, ids)),
  );
  return { known, reads: sent.filter((s) => s.includes('FROM notifier_question')) };
}

async function fromTable(projectId: string, id: string) {
  const rows: QuestionRow[] = await store.ds.query(
    `SELECT ${KNOWN_QUESTION_COLUMNS} FROM notifier_question WHERE project_id = $1 AND question_id = $2`,
    [projectId, id],
  );
  return toKnownQuestion(rows[0]!);
}

describe('the questions the notifier kept, remembered', () => {
  it('answers a fact naming kept questions without a read, as the table would', async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    await store.ds.transaction(async (m) => {
      await saveDeclaredQuestion(m, 'p1', declared(a));
      await saveDeclaredQuestion(m, 'p1', declared(b));
    });
    const { known, reads } = await load('p1', [a, b]);
    expect(reads).toEqual([]);
    expect(known.get(a)).toEqual(await fromTable('p1', a));
    expect(known.get(b)).toEqual(await fromTable('p1', b));
  });

  it('reads when one is not remembered, another project included, and a missing one stays missing', async () => {
    const kept = randomUUID();
    const unknown = randomUUID();
    await store.ds.transaction((m) => saveDeclaredQuestion(m, 'p1', declared(kept)));
    const other = await load('p2', [kept]);
    expect(other.reads).toHaveLength(1);
    expect(other.known.size).toBe(0);
    const mixed = await load('p1', [kept, unknown]);
    expect(mixed.reads).toHaveLength(1);
    expect([...mixed.known.keys()]).toEqual([kept]);
  });

  it('remembers what it read: the second fact naming a question costs no read', async () => {
    const id = randomUUID();
    // Kept by another process: this one has not seen it.
    await store.ds.query(
      `INSERT INTO notifier_question (question_id, project_id, session_author_id, autor, pergunta, sugestao, afeta, origin, declared_at)
       VALUES ($1, 'p3', 'rui', 'po', 'Ship on Friday?', NULL, '{"regras":[],"historias":[],"tarefas":[]}', 'agent', now())`,
      [id],
    );
    const first = await load('p3', [id]);
    expect(first.reads).toHaveLength(1);
    const second = await load('p3', [id]);
    expect(second.reads).toEqual([]);
    expect(second.known.get(id)).toEqual(first.known.get(id));
  });
});
