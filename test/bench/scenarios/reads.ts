import type { DataSource } from 'typeorm';
import { QuestionsCommand } from '@openq/contracts';
import { RpcClient } from '@openq/messaging';
import { replayQuestionProjection } from '../../../services/questions/src/questions/projections/replay';
import { listStatement } from '../../../services/questions/src/questions/queries/list-open-questions.query';
import type { Stack } from '../../support/stack';
import { http } from '../support/http';
import { BENCH_USER } from '../support/payloads';
import { Latency } from '../support/stats';

/** Projects the seeded log spreads over; the reads ask for one of them. */
export const SEED_PROJECTS = 20;
export const READ_PROJECT = 'p1';

/**
 * Appends questions `from`..`to`-1 to the log in one INSERT … SELECT generate_series: each one
 * `question.declared` (the full §3.1 jsonb), and every second one `question.answered` plus
 * `decision.recorded` (§3.1), the answer 50 questions later in log order — 2 events per question
 * on average, spread over SEED_PROJECTS projects. The log's indexes and triggers stay on.
 */
export async function seedLog(ds: DataSource, from: number, to: number): Promise<number> {
  const [row] = await ds.query(
    `WITH q AS (
       SELECT g, 'p' || (g % ${SEED_PROJECTS}) AS project_id,
              md5('bench-q-' || g)::uuid AS question_id,
              md5('bench-e-' || g)::uuid AS decision_id,
              timestamptz '2026-01-01 00:00:00+00' + g * interval '1 second' AS at,
              'Should GET /codes/:codigo return 404 or 410 for an archived code, and must the response carry the archive date (case ' || g || ')?' AS pergunta,
              '410 Gone with the archive date in the body' AS sugestao,
              jsonb_build_object('regras', jsonb_build_array('RN-' || (g % 13), 'RN-42'), 'historias', jsonb_build_array('H-' || (g % 29)), 'tarefas', jsonb_build_array('T-' || (g % 31))) AS afeta
         FROM generate_series($1::int, $2::int - 1) AS g
     ), ev AS (
       SELECT g * 3 AS ord, md5('bench-d-' || g)::uuid AS event_id, project_id, question_id, 'question.declared' AS type,
              jsonb_build_object('questionId', question_id, 'sessionId', 'sess-' || (g % 97), 'sessionAuthorId', '${BENCH_USER}',
                'autor', (ARRAY['criativo', 'po', 'arquiteto', 'dev_lead'])[1 + g % 4], 'pergunta', pergunta, 'sugestao', sugestao,
                'afeta', afeta, 'origin', 'tool', 'toolCallId', 'toolu_seed_' || g,
                'declaredAt', to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) AS data
         FROM q
       UNION ALL
       SELECT (g + 50) * 3 + 1, md5('bench-a-' || g)::uuid, project_id, question_id, 'question.answered',
              jsonb_build_object('questionId', question_id, 'resposta', sugestao, 'aceitouSugestao', true, 'decisionEventId', decision_id,
                'respondidaPor', '${BENCH_USER}', 'viaAgente', NULL,
                'answeredAt', to_char((at + interval '50 seconds') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
         FROM q WHERE g % 2 = 0
       UNION ALL
       SELECT (g + 50) * 3 + 2, decision_id, project_id, question_id, 'decision.recorded',
              jsonb_build_object('decisionEventId', decision_id, 'actor', jsonb_build_object('kind', 'user', 'id', '${BENCH_USER}'),
                'context', pergunta, 'choice', sugestao, 'consequences', afeta, 'questionId', question_id, 'viaAgente', NULL,
                'decidedAt', to_char((at + interval '50 seconds') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
         FROM q WHERE g % 2 = 0
     ), ins AS (
       INSERT INTO question_log (event_id, project_id, question_id, type, data)
       SELECT event_id, project_id, question_id, type, data FROM ev ORDER BY ord
       RETURNING 1
     )
     SELECT count(*)::int AS n FROM ins`,
    [from, to],
  );
  return (row as { n: number }).n;
}

export async function logSize(ds: DataSource): Promise<number> {
  const [row] = await ds.query(`SELECT count(*)::int AS n FROM question_log`);
  return (row as { n: number }).n;
}

/** Rebuilds the projection from the log (the `openq replay` code) and refreshes planner statistics. */
export async function rebuild(ds: DataSource): Promise<number> {
  const result = await replayQuestionProjection(ds);
  await ds.query(`VACUUM ANALYZE question_log`);
  await ds.query(`VACUUM ANALYZE question_view`);
  await ds.query(`VACUUM ANALYZE question_counts`);
  return result.ms;
}

export interface ReadRun {
  p50: number;
  p99: number;
  /** The same list asked straight over NATS request/reply (no HTTP, no gateway). */
  rpcP50: number;
  rpcP99: number;
  /** CPU of this process per request (gateway + questions service + client), ms. */
  cpuPerRequest: number;
  cpuPerRpc: number;
  items: number;
}

/**
 * Sequential `GET /projects/:p/open-questions` (default: open, first page of 50) through the
 * gateway, then as many of the same list asked straight over NATS request/reply (no HTTP, no
 * gateway), so the hops can be told apart; with the CPU each took in this process.
 */
export async function readRun(stack: Stack, requests: number): Promise<ReadRun> {
  const token = stack.token(BENCH_USER, READ_PROJECT, 'viewer');
  const url = `${stack.baseUrl}/projects/${READ_PROJECT}/open-questions`;
  const rpc = new RpcClient(stack.nc);
  const { service, verb } = QuestionsCommand.list;
  const latency = new Latency();
  const rpcLatency = new Latency();
  let items = 0;
  let cpu = process.cpuUsage();
  for (let i = 0; i < requests; i++) {
    const t0 = performance.now();
    const res = await http('GET', url, { authorization: `Bearer ${token}` });
    const body = JSON.parse(res.body) as { items?: unknown[] };
    latency.record(performance.now() - t0);
    if (res.status !== 200) throw new Error(`bench: open-questions answered ${res.status}`);
    items = body.items?.length ?? 0;
  }
  const httpCpu = process.cpuUsage(cpu);
  cpu = process.cpuUsage();
  for (let i = 0; i < requests; i++) {
    const t1 = performance.now();
    const reply = await rpc.request(service, verb, {
      projectId: READ_PROJECT,
      userId: BENCH_USER,
      status: 'open',
      limit: 50,
    });
    rpcLatency.record(performance.now() - t1);
    if (!reply.ok) throw new Error(`bench: ${service}.${verb} failed: ${reply.error.reason}`);
  }
  const rpcCpu = process.cpuUsage(cpu);
  const ms = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000 / requests;
  return {
    p50: latency.p(50),
    p99: latency.p(99),
    rpcP50: rpcLatency.p(50),
    rpcP99: rpcLatency.p(99),
    cpuPerRequest: ms(httpCpu),
    cpuPerRpc: ms(rpcCpu),
    items,
  };
}

/** The plans of the two statements behind the route (list page + count), as the service runs them. */
export async function explainReads(ds: DataSource): Promise<{ list: string[] }> {
  const plan = async (sql: string, params: unknown[]) =>
    ((await ds.query(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params)) as { 'QUERY PLAN': string }[]).map(
      (r) => r['QUERY PLAN'],
    );
  // The statement the questions service runs for the first page of open questions, with its total.
  return { list: await plan(listStatement('open'), [READ_PROJECT, '0', 51]) };
}
