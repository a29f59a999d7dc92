import type { DataSource } from 'typeorm';
import { useQuestionsDatabase } from '../testing/questions-database';
import { OutboxWriter } from '@openq/messaging';
import { closeQuestions, type ClosingRequest } from '../store/question-groups.store';
import { declareQuestion } from '../commands/declare-question/declare-question.handler';
import { replayQuestionProjection } from './replay';

let ds: DataSource;
useQuestionsDatabase((opened) => (ds = opened));

/** A small deterministic PRNG, so a failure can be replayed with the same seed. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

async function snapshot(): Promise<{ view: unknown[]; counts: unknown[] }> {
  const view = await ds.query(
    `SELECT question_id, project_id, declared_position::text, status, declared, answered, withdrawn, amended, last_position::text, search::text, askers, ask_key, ask_bands FROM question_view ORDER BY question_id`,
  );
  const counts = await ds.query(
    `SELECT project_id, open, answered, withdrawn FROM question_counts ORDER BY project_id`,
  );
  return { view, counts };
}

/**
 * Random operations before the replay. 5,000 since ask once (issue #32) made each declaration a
 * look-up and a lock more: every kind of operation, group size and project still comes up many
 * times, and the suite stays within CI's budget.
 */
const OPERATIONS = 5_000;

describe('question log: replay and append-only', () => {
  it('rebuilds, after 5,000 random declares, answers, withdrawals and amendments, a projection identical to the live one', async () => {
    const random = rng(20261130);
    const declared: { projectId: string; questionId: string }[] = [];
    const asked: { projectId: string; n: number }[] = [];
    const projects = ['p1', 'p2', 'p3', 'p4', 'p5'];
    let operations = 0;
    while (operations < OPERATIONS) {
      // Batches in one transaction each keep the test fast; the handlers are the live ones. Answers
      // and withdrawals go in groups of 1–24, as the request edge commits them (several projects,
      // the same question more than once, both kinds in one group).
      await ds.transaction(async (m) => {
        const outbox = new OutboxWriter(m);
        let closings: ClosingRequest[] = [];
        let groupSize = 1 + Math.floor(random() * 24);
        const closeGroup = async () => {
          await closeQuestions(m, closings, new Date());
          closings = [];
          groupSize = 1 + Math.floor(random() * 24);
        };
        for (let i = 0; i < 250 && operations < OPERATIONS; i++, operations++) {
          const open = declared.length > 0 && random() < 0.4;
          if (open) {
            const pick = declared[Math.floor(random() * declared.length)]!;
            const kind = random();
            if (kind < 0.15) {
              // §11.5 the session author amends (refused unless an agent's decision stands; the
              // same words again write nothing).
              closings.push({
                ...pick,
                outbox,
                amendment: { userId: 'ana', resposta: random() < 0.5 ? 'amended' : `amended ${i}` },
              });
            } else if (kind < 0.3) {
              // §11.5 a withdrawal (refused on an answered question, nothing on a withdrawn one).
              closings.push({
                ...pick,
                outbox,
                withdrawal:
                  random() < 0.5
                    ? { by: 'user', userId: 'ana', motivo: `no longer needed ${i}` }
                    : { by: 'agent', viaAgente: 'po', sessionId: 's', motivo: `settled elsewhere ${i}` },
              });
            } else if (random() < 0.5) {
              closings.push({
                ...pick,
                outbox,
                command: { by: 'agent', viaAgente: 'po', resposta: random() < 0.5 ? null : `agent ${i}` },
              });
              // Sometimes its amendment in the same group: the answer and the supersession are
              // projected by two statements of one batch.
              if (random() < 0.2) {
                closings.push({ ...pick, outbox, amendment: { userId: 'ana', resposta: `at once ${i}` } });
              }
            } else {
              closings.push({
                ...pick,
                outbox,
                command: { by: 'user', userId: 'ana', resposta: `click ${i}` },
              });
            }
            if (closings.length >= groupSize) await closeGroup();
          } else {
            // §12.3 one in 30 asks an earlier question again, in its project (a join, or its precedent).
            const again =
              asked.length > 0 && random() < 1 / 30 ? asked[Math.floor(random() * asked.length)]! : null;
            const projectId = again?.projectId ?? projects[Math.floor(random() * projects.length)]!;
            const n = again?.n ?? operations;
            asked.push({ projectId, n });
            const r = await declareQuestion(
              m,
              outbox,
              projectId,
              {
                sessionId: 's',
                sessionAuthorId: 'ana',
                autor: 'po',
                origin: 'tool',
                pergunta: `question ${n}`,
                sugestao: random() < 0.5 ? `suggestion ${operations}` : null,
                afeta: { regras: [], historias: [], tarefas: [`T${n % 17}`] },
                toolCallId:
                  random() < 0.05 && declared.length > 0
                    ? `tc-${Math.floor(random() * operations)}`
                    : `tc-${operations}`,
              },
              new Date(),
            );
            if (r.created) declared.push({ projectId, questionId: r.questionId });
          }
        }
        await closeGroup();
        await outbox.flush();
      });
    }
    const live = await snapshot();
    expect(live.view.length).toBe(declared.length);
    const answered = (live.view as { status: string }[]).filter((v) => v.status === 'answered').length;
    expect(answered).toBeGreaterThan(500);
    const [{ n: logAnswers }] = await ds.query(
      `SELECT count(*)::int AS n FROM question_log WHERE type = 'question.answered'`,
    );
    expect(logAnswers).toBe(answered);
    const withdrawn = (live.view as { status: string }[]).filter((v) => v.status === 'withdrawn').length;
    expect(withdrawn).toBeGreaterThan(50);
    const amended = (live.view as { amended: unknown }[]).filter((v) => v.amended !== null).length;
    expect(amended).toBeGreaterThan(50);
    const [{ n: logAmendments }] = await ds.query(
      `SELECT count(*)::int AS n FROM question_log WHERE type = 'decision.superseded'`,
    );
    expect(logAmendments).toBe(amended);

    const indexes = () =>
      ds.query(
        `SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'question_view' ORDER BY indexname`,
      );
    const liveIndexes = await indexes();
    expect(liveIndexes.length).toBeGreaterThan(3); // the GIN ones among them
    const result = await replayQuestionProjection(ds);
    expect(result.questions).toBe(declared.length);
    const rebuilt = await snapshot();
    expect(rebuilt).toEqual(live);
    // Dropped for the rebuild, the same indexes again after it.
    expect(await indexes()).toEqual(liveIndexes);
    const [{ n: joins }] = await ds.query(
      `SELECT count(*)::int AS n FROM question_log WHERE type = 'question.joined'`,
    );
    expect(joins).toBeGreaterThan(5);
    // Ask once adds three statements to each of the 6,000 declarations.
  }, 240_000);

  it('refuses UPDATE, DELETE and TRUNCATE on the log', async () => {
    await ds.transaction(async (m) => {
      await declareQuestion(
        m,
        new OutboxWriter(m),
        'px',
        {
          sessionId: 's',
          sessionAuthorId: 'ana',
          autor: 'po',
          origin: 'tool',
          pergunta: 'kept?',
          afeta: { regras: [], historias: [], tarefas: [] },
          toolCallId: 'keep',
        },
        new Date(),
      );
    });
    await expect(
      ds.query(`UPDATE question_log SET data = '{}'::jsonb WHERE project_id = 'px'`),
    ).rejects.toThrow(/append-only/);
    await expect(ds.query(`DELETE FROM question_log WHERE project_id = 'px'`)).rejects.toThrow(/append-only/);
    await expect(ds.query(`TRUNCATE question_log`)).rejects.toThrow(/append-only/);
    const [{ n }] = await ds.query(`SELECT count(*)::int AS n FROM question_log WHERE project_id = 'px'`);
    expect(n).toBe(1);
  });
});
