import type { DataSource } from 'typeorm';
import { useQuestionsDatabase } from '../testing/questions-database';
import { isRefusal, type QuestionListReply } from '@openq/contracts';
import { OutboxWriter } from '@openq/messaging';
import { answerQuestion } from '../commands/answer-question/answer-question.handler';
import { declareIn } from '../testing/declare-in';
import { listQuestions } from './list-open-questions.query';

let ds: DataSource;
useQuestionsDatabase((opened) => (ds = opened));

async function declare(projectId: string, n: number): Promise<string> {
  return (await declareIn(ds, projectId, { pergunta: `question ${n}`, toolCallId: `tc-${projectId}-${n}` }))
    .questionId;
}

async function answer(projectId: string, questionId: string): Promise<void> {
  await ds.transaction(async (m) => {
    const outbox = new OutboxWriter(m);
    await answerQuestion(
      m,
      outbox,
      projectId,
      questionId,
      { by: 'user', userId: 'ana', resposta: 'yes' },
      new Date(),
    );
    await outbox.flush();
  });
}

async function list(
  projectId: string,
  status: 'open' | 'answered' | 'all',
  limit: number,
  cursor?: string | null,
): Promise<QuestionListReply> {
  const reply = await listQuestions(ds.manager, { projectId, userId: 'ana', status, limit, cursor });
  if (isRefusal(reply)) throw new Error(`refused: ${reply.reason}`);
  return reply;
}

describe('listQuestions', () => {
  it('pages oldest first with the total of the filter, and answers an empty or unknown project with nothing', async () => {
    const ids: string[] = [];
    for (let n = 0; n < 7; n++) ids.push(await declare('pages', n));
    await answer('pages', ids[1]!);
    await answer('pages', ids[4]!);

    const first = await list('pages', 'open', 2);
    expect(first.items.map((i) => i.questionId)).toEqual([ids[0], ids[2]]);
    expect(first.total).toBe(5);
    const second = await list('pages', 'open', 2, first.nextCursor);
    expect(second.items.map((i) => i.questionId)).toEqual([ids[3], ids[5]]);
    const third = await list('pages', 'open', 2, second.nextCursor);
    expect(third.items.map((i) => i.questionId)).toEqual([ids[6]]);
    expect(third.nextCursor).toBeNull();

    const answered = await list('pages', 'answered', 10);
    expect(answered.items.map((i) => [i.questionId, i.status, i.resposta])).toEqual([
      [ids[1], 'answered', 'yes'],
      [ids[4], 'answered', 'yes'],
    ]);
    expect(answered.total).toBe(2);
    const all = await list('pages', 'all', 10);
    expect(all.items).toHaveLength(7);
    expect(all.total).toBe(7);

    expect(await list('nobody-here', 'open', 10)).toEqual({
      items: [],
      total: 0,
      limit: 10,
      nextCursor: null,
    });
    const past = await list('pages', 'open', 10, third.nextCursor ?? first.nextCursor);
    expect(past.total).toBe(5);
  });

  it('reads the slice and its total from one snapshot while questions are declared and answered', async () => {
    let writing = true;
    let n = 0;
    const writer = (async () => {
      while (writing) {
        const id = await declare('busy', n++);
        if (n % 3 === 0) await answer('busy', id);
      }
    })();
    const disagreements: string[] = [];
    let reads = 0;
    while (n < 300) {
      const [open, all] = await Promise.all([list('busy', 'open', 1000), list('busy', 'all', 1000)]);
      reads++;
      if (open.items.length !== open.total)
        disagreements.push(`open: ${open.items.length} items, total ${open.total}`);
      if (all.items.length !== all.total)
        disagreements.push(`all: ${all.items.length} items, total ${all.total}`);
    }
    writing = false;
    await writer;
    expect(reads).toBeGreaterThan(10);
    expect(disagreements).toEqual([]);
  });
});

describe('listQuestions with first (issue #18: blocking most first)', () => {
  const ranked = async (first: string[], limit: number, cursor?: string | null) => {
    const reply = await listQuestions(ds.manager, {
      projectId: 'ranked',
      userId: 'ana',
      status: 'open',
      limit,
      cursor,
      first,
    });
    if (isRefusal(reply)) throw new Error(`refused: ${reply.reason}`);
    return reply;
  };

  it('lists the given open ids first in their order, then the rest oldest first, across pages', async () => {
    const ids: string[] = [];
    for (let n = 0; n < 6; n++) ids.push(await declare('ranked', n));
    await answer('ranked', ids[2]!);
    const other = await declare('ranked-other', 0);
    // An answered id and another project's id in `first` are not listed from it.
    const first = [ids[4]!, ids[2]!, other, ids[1]!];

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: QuestionListReply = await ranked(first, 2, cursor);
      expect(page.total).toBe(5);
      seen.push(...page.items.map((i) => i.questionId));
      cursor = page.nextCursor;
      pages++;
    } while (cursor && pages < 10);

    expect(seen).toEqual([ids[4], ids[1], ids[0], ids[3], ids[5]]);
    expect(pages).toBe(3);
    // Without `first` (or with none of its ids open) the list is oldest first, as before.
    expect((await ranked([], 50)).items.map((i) => i.questionId)).toEqual([
      ids[0],
      ids[1],
      ids[3],
      ids[4],
      ids[5],
    ]);
  });

  it('refuses a cursor it did not give out', async () => {
    const reply = await listQuestions(ds.manager, {
      projectId: 'ranked',
      userId: 'ana',
      status: 'open',
      limit: 5,
      cursor: Buffer.from('r:x:1').toString('base64url'),
      first: ['0190a3b8-7c1d-7e2f-8a3b-1c2d3e4f5a6b'],
    });
    expect(reply).toMatchObject({ statusCode: 400, reason: 'parametro_invalido' });
  });
});
