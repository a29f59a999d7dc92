import type { BenchPlan } from './plan';

/** Row labels of the results table (scenario, metric), in one place for the phases and the targets. */
const count = (n: number) => (n >= 1_000_000 ? `${n / 1_000_000}M` : n >= 1000 ? `${n / 1000}k` : String(n));

export const S = {
  floor: '1 floor',
  floorBatched: '1b floor, batched',
  ingest: '2 ingest',
  resume: '3 answer→resume',
  reads: '4 reads',
  parked: '5 parked capacity',
  peer: '6 peer: LangGraph',
  burst: '7 burst',
  burstDeployed: '7b burst, one project, as deployed',
  shed: '8 read burst, shed',
  peak: '9 peak resumes',
} as const;

/** What CPU, statements and transactions are counted per, in each scenario. */
export const PER = {
  event: 'event',
  declaration: 'declaration',
  cycle: 'cycle (park + answer + resume)',
  httpDeclaration: 'declaration over HTTP',
} as const;

export const M = {
  floorThroughput: 'throughput (publish → commit → ack)',
  floorCommitP50: (p: BenchPlan) => `publish→commit p50 @ ${p.rate}/s`,
  floorCommitP99: (p: BenchPlan) => `publish→commit p99 @ ${p.rate}/s`,
  floorConsumeP50: (p: BenchPlan) => `publish→consume p50 @ ${p.rate}/s`,
  floorConsumeP99: (p: BenchPlan) => `publish→consume p99 @ ${p.rate}/s`,

  ingestThroughput: 'throughput (declare → question.declared delivered)',
  ingestCommitted: 'throughput (declare → committed)',
  ingestRatio: 'ratio to floor throughput',
  ingestBatchedRatio: 'ratio to batched floor throughput',

  floorBatchedThroughput: (batch: number) =>
    `throughput (pull ${batch} → one transaction: inbox, effect, outbox → ack all)`,
  floorBatchSize: 'messages per transaction (mean)',
  floorBatchedPublished: 'publish rate in the same window (64 PubAcks outstanding)',

  resumeP50: (p: BenchPlan) => `request → gate.resumed p50 @ ${p.rate}/s`,
  resumeP90: (p: BenchPlan) => `request → gate.resumed p90 @ ${p.rate}/s`,
  resumeP99: (p: BenchPlan) => `request → gate.resumed p99 @ ${p.rate}/s`,
  resumeAchieved: (p: BenchPlan) => `resumed/s while offered ${p.rate}/s`,
  resumeFailed: (p: BenchPlan) => `answers failed (5xx) of ${p.answersAtRate} offered at ${p.rate}/s`,
  resumeSoloP50: 'request → gate.resumed p50, one at a time',
  resumeSoloP99: 'request → gate.resumed p99, one at a time',
  resumeBackToBackP50: 'request → gate.resumed p50, one at a time, back to back',
  resumeSoloRatio: 'ratio one-at-a-time p50 / floor publish→commit p50',
  resumeHttpP50: 'HTTP answer (request → 200) p50',
  resumeHttpP99: 'HTTP answer (request → 200) p99',
  resumeRatio: 'ratio p50 / floor publish→commit p50',
  resumeParks: 'parks/s (gate.started + verdict → gate.rescue_parked)',
  resumeResumes: 'resumes/s (16 answers at once)',

  readP50: (n: number) => `open-questions p50 @ ${count(n)} events`,
  readP99: (n: number) => `open-questions p99 @ ${count(n)} events`,
  readRatio: (p: BenchPlan) => `ratio p99 ${count(p.readsLarge)} / ${count(p.readsSmall)}`,
  readRpcP50: (n: number) => `list over NATS request/reply only p50 @ ${count(n)} events`,
  readRpcP99: (n: number) => `list over NATS request/reply only p99 @ ${count(n)} events`,
  readCpu: (n: number) => `CPU per HTTP read (gateway + questions + client) @ ${count(n)} events`,
  readRpcCpu: (n: number) => `CPU per NATS-only read (questions + client) @ ${count(n)} events`,
  readDbMs: (n: number) => `list query execution (EXPLAIN ANALYZE) @ ${count(n)} events`,

  rssBefore: (svc: string) => `RSS ${svc}, before`,
  rssAfter: (svc: string, p: BenchPlan) => `RSS ${svc}, with ${count(p.parkedCycles)} parked`,
  rssRestarted: (p: BenchPlan) => `RSS gates, restarted with ${count(p.parkedCycles)} parked`,
  rssDelta: (svc: string) => `RSS ${svc}, after − before`,
  pgBefore: 'gates tables (pg_total_relation_size), before',
  pgAfter: (p: BenchPlan) => `gates tables (pg_total_relation_size), with ${count(p.parkedCycles)} parked`,
  pgPerCycle: 'PostgreSQL bytes per parked cycle',
  parkedResumeP50: (p: BenchPlan, parked = p.parkedCycles) =>
    `answer→resume p50 with ${count(parked)} parked @ ${p.parkedLiveRate}/s`,
  parkedResumeP99: (p: BenchPlan, parked = p.parkedCycles) =>
    `answer→resume p99 with ${count(parked)} parked @ ${p.parkedLiveRate}/s`,
  parkedAchieved: (p: BenchPlan, parked = p.parkedCycles) =>
    `resumed/s with ${count(parked)} parked, offered ${p.parkedLiveRate}/s`,

  /** CPU per event (or per cycle) in each process of the system, from /proc. */
  cpu: (where: 'node' | 'postgres' | 'nats', per = 'event') =>
    `CPU per ${per}: ${where === 'node' ? 'Node (openq + load, one process)' : where === 'postgres' ? 'PostgreSQL backends' : 'nats-server'}`,

  /** Node's CPU when each service runs in a process of its own (scenario 7b), the load's included. */
  cpuDeployed: (per = 'event') => `CPU per ${per}: Node (five service processes + load)`,

  /** All three together: the CPU the system spends per event (or cycle). */
  cpuTotal: (per = 'event') => `CPU per ${per}: all (Node + PostgreSQL + nats-server)`,

  sql: (per = 'event') => `SQL statements per ${per}`,
  /** Explicit transaction blocks plus statements sent outside one (each its own transaction). */
  transactions: (per = 'event') => `SQL transactions per ${per}`,

  shedAdmitted: (n: number) => `reads admitted of ${count(n)} at once`,
  shedShed: (n: number) => `reads shed (503 sobrecarregado) of ${count(n)} at once`,
  shedOther: (n: number) => `reads answered otherwise (error, no response) of ${count(n)} at once`,
  shedAdmittedP50: (n: number) => `admitted read (burst start → response) p50, ${count(n)} at once`,
  shedAdmittedP99: (n: number) => `admitted read (burst start → response) p99, ${count(n)} at once`,
  healthP50: (n: number, where: string) => `/healthz on the ${where} p50 during ${count(n)} reads at once`,
  healthP99: (n: number, where: string) => `/healthz on the ${where} p99 during ${count(n)} reads at once`,
  healthFailed: (n: number, where: string) =>
    `/healthz on the ${where} not 200 during ${count(n)} reads at once`,
  burstFailed: (n: number) => `declarations failed (5xx or no response) of ${count(n)} at once`,
  burst5xx: (n: number) => `5xx of ${count(n)} declarations at once`,
  burstAllAnswered: (n: number) => `time until all ${count(n)} declarations are answered`,
  burstP50: (n: number) => `declaration (burst start → response) p50, ${count(n)} at once`,
  burstP99: (n: number) => `declaration (burst start → response) p99, ${count(n)} at once`,

  peerParks: 'parks/s (invoke → interrupt, 16 at once)',
  peerResumes: 'resumes/s (Command{resume}, 16 at once)',
  peerP50: (p: BenchPlan) => `resume p50 @ ${p.rate}/s`,
  peerP99: (p: BenchPlan) => `resume p99 @ ${p.rate}/s`,
  peerSoloP50: 'resume p50, one at a time',
  peerSoloP99: 'resume p99, one at a time',
  ratioP50: 'openq / peer: resume p50 @ rate',
  ratioP99: 'openq / peer: resume p99 @ rate',
  ratioParks: 'openq / peer: parks/s',
  ratioResumes: 'openq / peer: resumes/s',
  ratioSolo: 'openq / peer: resume p50, one at a time',

  /** Issue #29's peak: resumes/s at each number of answers in flight, each side's best. */
  peakResumes: (inFlight: number) => `openq resumes/s, ${inFlight} answers in flight`,
  peakFailed: (inFlight: number) => `openq answers failed (5xx), ${inFlight} in flight`,
  peerPeakResumes: (inFlight: number) => `LangGraph resumes/s, ${inFlight} in flight`,
  peakBest: 'openq peak resumes/s (best level)',
  peerPeakBest: 'LangGraph peak resumes/s (best level)',
  ratioPeak: "openq / peer: peak resumes/s (each side's best)",

  /** PostgreSQL backends' CPU divided by the statements sent, in the same window. */
  pgPerStatement: 'PostgreSQL CPU per statement',
  pgPerStatementRatio: "ratio PostgreSQL CPU per statement / floor's",
};
