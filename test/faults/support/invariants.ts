import { STREAMS } from '@openq/contracts';
import { openDatabase } from '@openq/persistence';
import { QUESTIONS_MIGRATIONS } from '../../../services/questions/src/questions-service';
import { replayQuestionProjection } from '../../../services/questions/src/questions/projections/replay';
import { CONTEXT_MIGRATIONS } from '../../../services/context/src/context/migrations';
import { replayContextReadModels } from '../../../services/context/src/context/projections/replay';
import type { StackView } from '../../support/processes';
import { deadLetters, readStream } from './quiet';
import { qaToolCall, type Workload } from './workload';

export { consumerStates, deadLetters, outboxBacklog, readStream, waitQuiet } from './quiet';

const countBy = <T>(items: T[], key: (t: T) => string): Map<string, number> => {
  const m = new Map<string, number>();
  for (const item of items) m.set(key(item), (m.get(key(item)) ?? 0) + 1);
  return m;
};

/** The question projection as rows, in a fixed order (for comparing with a replay). */
async function projectionSnapshot(stack: StackView): Promise<string> {
  const view = await stack.sql(
    `SELECT question_id, project_id, declared_position::text, status, declared, answered, last_position::text FROM questions.question_view ORDER BY question_id`,
  );
  const counts = await stack.sql(
    `SELECT project_id, open, answered FROM questions.question_counts ORDER BY project_id`,
  );
  return JSON.stringify({ view, counts });
}

/** Drops the live projection, rebuilds it from the log (`replayQuestionProjection`) and compares. */
export async function projectionEqualsReplay(
  stack: StackView,
): Promise<{ equal: boolean; questions: number; ms: number }> {
  const live = await projectionSnapshot(stack);
  const ds = await openDatabase({
    url: stack.db.url,
    schema: 'questions',
    migrations: QUESTIONS_MIGRATIONS,
    poolSize: 2,
  });
  try {
    const result = await replayQuestionProjection(ds);
    const rebuilt = await projectionSnapshot(stack);
    return { equal: live === rebuilt, questions: result.questions, ms: result.ms };
  } finally {
    await ds.destroy();
  }
}

/** The context read models as rows, in a fixed order. */
async function contextSnapshot(stack: StackView): Promise<string> {
  const tables: [string, string][] = [
    ['context_story', 'project_id, story_id'],
    ['context_task', 'project_id, task_id'],
    ['context_decision', 'decision_event_id'],
    ['context_question', 'project_id, question_id'],
  ];
  const out: Record<string, unknown[]> = {};
  for (const [table, order] of tables) {
    out[table] = await stack.sql(`SELECT to_jsonb(t)::text AS row FROM context.${table} t ORDER BY ${order}`);
  }
  return JSON.stringify(out);
}

/**
 * Rebuilds the context read models from the streams (`replayContextReadModels`, what
 * `openq replay context` runs) and compares them with what the live consumers built.
 */
export async function contextEqualsReplay(
  stack: StackView,
): Promise<{ equal: boolean; facts: number; ms: number }> {
  const live = await contextSnapshot(stack);
  const ds = await openDatabase({
    url: stack.db.url,
    schema: 'context',
    migrations: CONTEXT_MIGRATIONS,
    poolSize: 2,
  });
  try {
    const result = await replayContextReadModels(ds, stack.nc);
    const facts = Object.values(result.types).reduce((sum, t) => sum + t.applied, 0);
    return { equal: live === (await contextSnapshot(stack)), facts, ms: result.ms };
  } finally {
    await ds.destroy();
  }
}

/**
 * The invariants of a workload after the system went quiet, whatever crashed on the way: each
 * declared toolCallId once; each answer once with its one decision (log and stream); each cycle
 * whose question was answered resumed once, the others not; the context saw the same; the
 * question projection equals a replay of the log and the context read models a replay of the
 * streams; nothing dead-lettered. Returns the figures.
 */
export async function checkWorkload(
  stack: StackView,
  load: Workload,
  options: { allowDeadLetters?: boolean } = {},
): Promise<Record<string, number | boolean>> {
  const declared = await stack.sql<{ project_id: string; tc: string; question_id: string }>(
    `SELECT project_id, data->>'toolCallId' AS tc, question_id FROM questions.question_log WHERE type = 'question.declared' AND project_id = ANY($1)`,
    [load.projects],
  );
  const byToolCall = countBy(declared, (r) => `${r.project_id}/${r.tc}`);
  const missing = load.declares
    .filter((d) => byToolCall.get(`${d.project}/${d.toolCallId}`) !== 1)
    .map((d) => d.toolCallId);
  const missingQa = load.cycles
    .filter((c) => byToolCall.get(`${c.project}/${qaToolCall(c)}`) !== 1)
    .map((c) => c.taskId);
  if (missing.length + missingQa.length > 0) {
    const letters = await stack.sql(
      `SELECT consumer, reason, left(message, 300) AS message, deliveries FROM questions.dead_letter UNION ALL SELECT consumer, reason, left(message, 300), deliveries FROM gates.dead_letter LIMIT 10`,
    );
    const counts = [...byToolCall].filter(([, n]) => n !== 1).slice(0, 5);
    expect({
      stalled: load.stalled,
      missingOrTwice: missing.slice(0, 10),
      missingQa: missingQa.slice(0, 10),
      counts,
      letters,
    }).toEqual({ missingOrTwice: [], missingQa: [] });
  }
  expect(declared.length).toBe(load.declares.length + load.cycles.length);

  const answers = await stack.sql<{
    question_id: string;
    answered: string;
    decisions: string;
    ok: boolean;
    via: string | null;
    decision_id: string | null;
  }>(
    `SELECT question_id,
            count(*) FILTER (WHERE type = 'question.answered') AS answered,
            count(*) FILTER (WHERE type = 'decision.recorded') AS decisions,
            bool_and(type <> 'question.answered' OR data->>'decisionEventId' IN (SELECT event_id::text FROM questions.question_log d WHERE d.question_id = l.question_id AND d.type = 'decision.recorded')) AS ok,
            max(data->>'viaAgente') FILTER (WHERE type = 'question.answered') AS via,
            max(data->>'decisionEventId') FILTER (WHERE type = 'question.answered') AS decision_id
       FROM questions.question_log l WHERE project_id = ANY($1) GROUP BY question_id`,
    [load.projects],
  );
  const logAnswered = new Map(answers.filter((a) => Number(a.answered) > 0).map((a) => [a.question_id, a]));
  const halfWritten = answers.filter((a) => a.answered !== a.decisions || !a.ok);
  expect(halfWritten.slice(0, 5)).toEqual([]);
  const lost = [...load.answered.keys()].filter((q) => !logAnswered.has(q));
  const spurious = [...logAnswered.keys()].filter((q) => !load.answered.has(q));
  const wrongDoor = [...load.answered]
    .filter(([q, a]) => (logAnswered.get(q)?.via === null) !== (a.door === 'click'))
    .map(([q]) => q);
  if (lost.length + spurious.length + wrongDoor.length > 0) {
    const explain = (q: string) => ({
      q,
      door: load.answered.get(q)?.door,
      click: load.clicks.find((c) => c.questionId === q) ?? null,
    });
    const letters = await deadLetters(stack);
    expect({
      lost: lost.slice(0, 5).map(explain),
      spurious: spurious.slice(0, 5),
      wrongDoor: wrongDoor.filter((q) => !lost.includes(q)).slice(0, 5),
      letters,
    }).toEqual({ lost: [], spurious: [], wrongDoor: [] });
  }
  expect(load.answered.size).toBe(load.plannedAnswers);
  const clicksOk = load.clicks.filter((c) => c.status === 200);
  const clicks409 = load.clicks.filter((c) => c.status === 409 && c.reason === 'pergunta_ja_respondida');
  const clickOther = load.clicks.filter(
    (c) => c.status !== 200 && !(c.status === 409 && c.reason === 'pergunta_ja_respondida'),
  );
  expect(clickOther.slice(0, 5)).toEqual([]);
  const mismatched = clicksOk.filter((c) => logAnswered.get(c.questionId)?.decision_id !== c.decisionEventId);
  expect(mismatched.slice(0, 5)).toEqual([]);

  // The stream: each declared, answered and decision event published once.
  const mine = new Set(load.projects);
  const published = (
    await readStream<{ questionId: string }>(stack.nc, STREAMS.openqEvents.name, '>')
  ).filter((m) => m.envelope && mine.has(m.envelope.projectId));
  const perType = (type: string) =>
    countBy(
      published.filter((m) => m.envelope?.type === type),
      (m) => m.envelope!.data.questionId,
    );
  const declaredOnce = (m: Map<string, number>, ids: Iterable<string>) =>
    [...ids].filter((id) => m.get(id) !== 1);
  expect(
    declaredOnce(
      perType('question.declared'),
      declared.map((d) => d.question_id),
    ).slice(0, 5),
  ).toEqual([]);
  expect(declaredOnce(perType('question.answered'), logAnswered.keys()).slice(0, 5)).toEqual([]);
  expect(declaredOnce(perType('decision.recorded'), logAnswered.keys()).slice(0, 5)).toEqual([]);
  expect(perType('decision.recorded').size).toBe(logAnswered.size);

  // Gates: one gate.resumed per cycle whose question was answered, none for the others.
  const resumed = countBy(
    published.filter((m) => m.envelope?.type === 'gate.resumed'),
    (m) => `${m.envelope!.projectId}/${(m.envelope!.data as unknown as { taskId: string }).taskId}`,
  );
  const badResume = load.cycles
    .filter((c) => (resumed.get(`${c.project}/${c.taskId}`) ?? 0) !== (c.door ? 1 : 0))
    .map((c) => `${c.taskId}:${resumed.get(`${c.project}/${c.taskId}`) ?? 0}`);
  expect(badResume.slice(0, 10)).toEqual([]);
  const states = await stack.sql<{ task_id: string; state: string }>(
    `SELECT task_id, state FROM gates.gate_cycle WHERE project_id = ANY($1)`,
    [load.projects],
  );
  const stateOf = new Map(states.map((s) => [s.task_id, s.state]));
  const badState = load.cycles
    .filter((c) => stateOf.get(c.taskId) !== (c.door ? 'running' : 'parked'))
    .map((c) => `${c.taskId}:${stateOf.get(c.taskId)}`);
  expect(badState.slice(0, 10)).toEqual([]);

  // Context: the same questions, answers and decisions.
  const contextDiff = await stack.count(
    `SELECT count(*) AS n FROM (
       (SELECT question_id, answered_at IS NOT NULL AS a FROM context.context_question WHERE project_id = ANY($1)
        EXCEPT SELECT question_id, status = 'answered' FROM questions.question_view WHERE project_id = ANY($1))
       UNION ALL
       (SELECT question_id, status = 'answered' FROM questions.question_view WHERE project_id = ANY($1)
        EXCEPT SELECT question_id, answered_at IS NOT NULL FROM context.context_question WHERE project_id = ANY($1))
     ) d`,
    [load.projects],
  );
  expect(contextDiff).toBe(0);
  const decisionsDiff = await stack.count(
    `SELECT count(*) AS n FROM (
       (SELECT decision_event_id FROM context.context_decision WHERE project_id = ANY($1)
        EXCEPT SELECT event_id FROM questions.question_log WHERE type = 'decision.recorded' AND project_id = ANY($1))
       UNION ALL
       (SELECT event_id FROM questions.question_log WHERE type = 'decision.recorded' AND project_id = ANY($1)
        EXCEPT SELECT decision_event_id FROM context.context_decision WHERE project_id = ANY($1))
     ) d`,
    [load.projects],
  );
  expect(decisionsDiff).toBe(0);

  const replay = await projectionEqualsReplay(stack);
  expect(replay.equal).toBe(true);
  const contextReplay = await contextEqualsReplay(stack);
  expect(contextReplay.equal).toBe(true);
  const dead = options.allowDeadLetters ? [] : await deadLetters(stack);
  expect(dead).toEqual([]);

  return {
    declaredQuestions: declared.length,
    answeredQuestions: logAnswered.size,
    decisionsRecorded: perType('decision.recorded').size,
    openqEventsInStream: published.length,
    cyclesResumed: [...resumed.values()].reduce((a, b) => a + b, 0),
    cyclesLeftParked: load.cycles.filter((c) => !c.door).length,
    clicks200: clicksOk.length,
    clicks409AfterRetry: clicks409.length,
    projectionEqualsReplay: replay.equal,
    contextEqualsReplay: contextReplay.equal,
    contextFactsReplayed: contextReplay.facts,
    deadLetters: dead.length,
  };
}
