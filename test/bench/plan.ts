/** How much each scenario does. `full` fits in ~10 minutes on 2 cores; `quick` in about a minute, for CI. */
export interface BenchPlan {
  mode: 'full' | 'quick';
  runs: number;
  /** Fixed rate of the latency phases (floor latency, answers, peer resumes), per second. */
  rate: number;
  floorEvents: number;
  floorLatencyEvents: number;
  /** Events through the batched floor, and how many messages it takes per transaction. */
  floorBatchedEvents: number;
  floorBatch: number;
  ingestEvents: number;
  answersAtRate: number;
  answersSaturating: number;
  /**
   * Answered one at a time after the others: every other one once the services are idle (the
   * path's latency without queueing), the rest back to back (each as the previous one resumed).
   */
  answersUnloaded: number;
  readsSmall: number;
  readsLarge: number;
  readRequests: number;
  /** Questions per seed statement (2 events each on average). */
  seedBatch: number;
  parkedCycles: number;
  parkedBatch: number;
  /** Real cycles parked and answered among the bulk-inserted ones, per run, and their rate. */
  parkedLive: number;
  parkedLiveRate: number;
  /** GATE_SWEEP_INTERVAL_S of the services in the parked scenario, and pauses between RSS samples. */
  sweepIntervalS: number;
  sampleGapMs: number;
  peerThreads: number;
  peerUnloaded: number;
  /** The peak (issue #29): answers in flight at each level, for openq and the peer alike. */
  peakInFlight: readonly number[];
  /** Answers at each level: `peakWaves` × the level, at least `peakMinAnswers`. */
  peakWaves: number;
  peakMinAnswers: number;
  /** Declarations sent at once over HTTP in the burst scenario. */
  burstDeclarations: number;
  timeoutMs: number;
}

export const FULL: BenchPlan = {
  mode: 'full',
  runs: 3,
  rate: 200,
  floorEvents: 3000,
  floorLatencyEvents: 1000,
  floorBatchedEvents: 10_000,
  floorBatch: 100,
  ingestEvents: 2000,
  answersAtRate: 1000,
  answersSaturating: 500,
  answersUnloaded: 60,
  readsSmall: 10_000,
  readsLarge: 1_000_000,
  readRequests: 500,
  seedBatch: 100_000,
  parkedCycles: 1_000_000,
  parkedBatch: 100_000,
  parkedLive: 40,
  parkedLiveRate: 20,
  sweepIntervalS: 3,
  sampleGapMs: 1000,
  peerThreads: 600,
  peerUnloaded: 30,
  peakInFlight: [16, 64, 256],
  peakWaves: 4,
  peakMinAnswers: 500,
  burstDeclarations: 2000,
  timeoutMs: 180_000,
};

export const QUICK: BenchPlan = {
  mode: 'quick',
  runs: 3,
  // CI must not rot the bench nor flake on a busy runner: a gentler rate than the full run.
  rate: 100,
  floorEvents: 300,
  floorLatencyEvents: 200,
  floorBatchedEvents: 1000,
  floorBatch: 100,
  ingestEvents: 300,
  answersAtRate: 50,
  answersSaturating: 50,
  answersUnloaded: 20,
  readsSmall: 1000,
  readsLarge: 20_000,
  readRequests: 100,
  seedBatch: 10_000,
  parkedCycles: 10_000,
  parkedBatch: 5000,
  parkedLive: 10,
  parkedLiveRate: 20,
  sweepIntervalS: 1,
  sampleGapMs: 300,
  peerThreads: 100,
  peerUnloaded: 10,
  peakInFlight: [16, 64, 256],
  peakWaves: 2,
  peakMinAnswers: 100,
  burstDeclarations: 200,
  timeoutMs: 120_000,
};

/** The peak's levels: answers in flight and how many answers each level sends. */
export function peakLevels(plan: BenchPlan): { inFlight: number; answers: number }[] {
  return plan.peakInFlight.map((inFlight) => ({
    inFlight,
    answers: Math.max(plan.peakMinAnswers, plan.peakWaves * inFlight),
  }));
}
