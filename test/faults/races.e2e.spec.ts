import { STREAMS } from '@openq/contracts';
import { ProcessStack } from '../support/processes';
import { devToken, http, SERVICE_TOKEN, type HttpResult } from './support/engine';
import { projectionEqualsReplay, readStream, waitQuiet } from './support/invariants';
import { printFigures, saveFigures } from './support/report';
import { rng } from './support/rng';
import { scaled } from './support/scale';

/*
 * Issue #9, item 4 — races. 1,000 questions at full scale (fewer in CI: support/scale.ts), each
 * answered at the same moment by its session author's click (user route) and by an agent
 * (internal route): exactly one answer wins each
 * time; the losing click gets 409 `pergunta_ja_respondida`, the losing agent 200
 * `already_answered` with the winner's decision. The log and the stream hold one decision each.
 */

const random = rng();
const QUESTIONS = scaled(1000, 150);
const PAIRS_AT_ONCE = 25;
let stack: ProcessStack;

beforeAll(async () => {
  stack = await ProcessStack.start({ dbPrefix: 'openq_race', services: ['questions', 'gateway'] });
}, 180_000);
afterAll(() => stack?.stop(), 60_000);

async function inPool<T>(
  items: T[],
  size: number,
  run: (item: T, i: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: size }, async () => {
      while (next < items.length) {
        const i = next++;
        await run(items[i]!, i);
      }
    }),
  );
}

it(`lets exactly one of click and agent win each of ${QUESTIONS} questions answered by both at once`, async () => {
  console.log(`races: seed ${random.seed} (replay with FAULTS_SEED=${random.seed})`);
  const base = stack.gatewayUrl;
  const projects = ['race0', 'race1', 'race2', 'race3'];
  const questions: { project: string; questionId: string }[] = [];
  await inPool(
    Array.from({ length: QUESTIONS }, (_, i) => i),
    32,
    async (i) => {
      const project = random.pick(projects);
      const r = await http(base, 'POST', `/internal/projects/${project}/open-questions`, {
        serviceToken: SERVICE_TOKEN,
        body: {
          sessionId: 's1',
          sessionAuthorId: 'ana',
          autor: 'arquiteto',
          pergunta: `Race ${i}: REST or gRPC?`,
          sugestao: 'REST',
          afeta: { regras: [], historias: [], tarefas: ['T1'] },
          toolCallId: `race-${i}`,
        },
      });
      expect(r.status).toBe(201);
      questions.push({ project, questionId: r.body.questionId });
    },
  );

  const outcomes: {
    project: string;
    questionId: string;
    click: HttpResult;
    agent: HttpResult;
    clickFirst: boolean;
  }[] = [];
  const started = Date.now();
  await inPool(questions, PAIRS_AT_ONCE, async ({ project, questionId }) => {
    // Which request leaves first is drawn, so both orders are exercised on the wire.
    const clickFirst = random.chance(0.5);
    const click = () =>
      http(base, 'POST', `/projects/${project}/open-questions/${questionId}/answer`, {
        token: devToken('ana', project),
        body: { resposta: `click on ${questionId}` },
      });
    const agent = () =>
      http(base, 'POST', `/internal/projects/${project}/open-questions/${questionId}/answer`, {
        serviceToken: SERVICE_TOKEN,
        body: { viaAgente: 'dev_lead', resposta: `agent on ${questionId}` },
      });
    const [first, second] = clickFirst ? [click(), agent()] : [agent(), click()];
    const [a, b] = await Promise.all([first, second]);
    outcomes.push({ project, questionId, click: clickFirst ? a : b, agent: clickFirst ? b : a, clickFirst });
  });
  const raceMs = Date.now() - started;

  const clickWon = outcomes.filter(
    (o) =>
      o.click.status === 200 &&
      o.agent.status === 200 &&
      o.agent.body.status === 'already_answered' &&
      o.agent.body.decisionEventId === o.click.body.decisionEventId,
  );
  const agentWon = outcomes.filter(
    (o) =>
      o.agent.status === 200 &&
      o.agent.body.status === 'answered' &&
      o.click.status === 409 &&
      o.click.body.reason === 'pergunta_ja_respondida',
  );
  const neither = outcomes.filter((o) => !clickWon.includes(o) && !agentWon.includes(o));
  expect(
    neither
      .slice(0, 3)
      .map((o) => ({ click: [o.click.status, o.click.body], agent: [o.agent.status, o.agent.body] })),
  ).toEqual([]);
  expect(clickWon.length + agentWon.length).toBe(QUESTIONS);

  const rows = await stack.sql<{
    question_id: string;
    answered: string;
    decisions: string;
    decision: string | null;
    via: string | null;
  }>(
    `SELECT question_id, count(*) FILTER (WHERE type = 'question.answered') AS answered, count(*) FILTER (WHERE type = 'decision.recorded') AS decisions,
            max(data->>'decisionEventId') FILTER (WHERE type = 'question.answered') AS decision, max(data->>'viaAgente') FILTER (WHERE type = 'question.answered') AS via
       FROM questions.question_log GROUP BY question_id`,
  );
  const byId = new Map(rows.map((r) => [r.question_id, r]));
  for (const o of outcomes) {
    const row = byId.get(o.questionId)!;
    const winner = clickWon.includes(o) ? o.click : o.agent;
    expect({
      id: o.questionId,
      answered: row.answered,
      decisions: row.decisions,
      decision: row.decision,
      byAgent: row.via !== null,
    }).toEqual({
      id: o.questionId,
      answered: '1',
      decisions: '1',
      decision: winner.body.decisionEventId,
      byAgent: winner === o.agent,
    });
  }
  await waitQuiet(stack, 60_000);
  const decisions = await readStream<{ questionId: string }>(
    stack.nc,
    STREAMS.openqEvents.name,
    'decision.recorded.>',
  );
  expect(decisions.length).toBe(QUESTIONS);
  expect(new Set(decisions.map((d) => d.envelope!.data.questionId)).size).toBe(QUESTIONS);
  const replay = await projectionEqualsReplay(stack);
  expect(replay.equal).toBe(true);

  const figures = {
    seed: random.seed,
    questions: QUESTIONS,
    'pairs in flight at once': PAIRS_AT_ONCE,
    'click won': clickWon.length,
    'agent won': agentWon.length,
    'click sent first': outcomes.filter((o) => o.clickFirst).length,
    'neither / both': neither.length,
    'decision.recorded in stream': decisions.length,
    raceMs,
    projectionEqualsReplay: replay.equal,
  };
  printFigures('races: click vs agent on the same question', figures);
  saveFigures('races', figures);
}, 600_000);
