import { createTestDatabase } from '@openq/testing';
import { Stack } from '../../support/stack';
import { M, PER, S } from '../metrics';
import { peakLevels } from '../plan';
import { answerResumeRun, peakRun } from '../scenarios/answer-resume';
import { burstRun, type BurstRun } from '../scenarios/burst';
import { readBurst } from '../scenarios/shed';
import { DEPLOYED, ProcessSystem } from '../scenarios/parked';
import { probePortOf, startGateway } from '../../../services/gateway/src/gateway';
import type { AddressInfo } from 'node:net';
import { BatchedFloor, Floor } from '../scenarios/floor';
import { ingestRun } from '../scenarios/ingest';
import { LangGraphPeer } from '../scenarios/peer-langgraph';
import { PeerProcess } from '../scenarios/peer-process';
import { CpuMeter, databaseBackends, type CpuSplit } from '../support/cpu';
import type { Collector } from '../support/results';
import { quiesce } from '../support/quiesce';
import { sqlTrace } from '../support/sql-trace';
import { attempt, BENCH_GATEWAY_ENV, type PhaseContext } from './common';

/** Lets the outbox relays drain and every durable consumer catch up. */
async function settle(stack: Stack): Promise<void> {
  for (const service of stack.services.values()) await service.server.outboxRelay?.flush();
  await quiesce(stack.nc);
}

/** A burst's figures, under its scenario. */
function addBurst(c: Collector, scenario: string, n: number, burst: BurstRun): void {
  c.add(scenario, M.burstFailed(n), 'requests', burst.failed5xx + burst.noResponse);
  c.add(scenario, M.burst5xx(n), 'requests', burst.failed5xx);
  c.add(scenario, M.burstAllAnswered(n), 'ms', burst.allAnsweredMs);
  c.add(scenario, M.burstP50(n), 'ms', burst.p50);
  c.add(scenario, M.burstP99(n), 'ms', burst.p99);
}

/**
 * The burst against the services as processes (`DEPLOYED`), all in one project (one pipeline's
 * agents at once: the declarations of a group meet each other), from and to quiet (every durable
 * consumer idle, so the background services' share of each declaration counts), with the CPU of
 * each process; their statements are not counted (sql-trace sees this process only).
 */
async function deployedBurst(system: ProcessSystem, n: number, tag: string) {
  const backends = databaseBackends(async (sql) => (await system.pg.query<{ pid: number }>(sql)).rows);
  await quiesce(system.nc);
  const cpu = await CpuMeter.start(backends, system.natsServer.port, system.pids());
  const run = await burstRun(system, n, tag, 1);
  await quiesce(system.nc);
  return { run, cpu: await cpu.stop(n) };
}

/** CPU, SQL statements and transactions of one measurement window. */
async function window(backends: () => Promise<number[]>, natsPort: number) {
  const cpu = await CpuMeter.start(backends, natsPort);
  const sql = sqlTrace.snapshot();
  const tx = sqlTrace.transactionsNow();
  return {
    /**
     * Adds CPU (each process, and all together), statements and transactions per event (or per
     * `per`) to the scenario; returns the statements and transactions, for the details.
     */
    async close(c: Collector, scenario: string, events: number, per: string = PER.event) {
      const split: CpuSplit = await cpu.stop(events);
      c.add(scenario, M.cpu('node', per), 'ms', split.node);
      c.add(scenario, M.cpu('postgres', per), 'ms', split.postgres);
      c.add(scenario, M.cpu('nats', per), 'ms', split.nats);
      c.add(scenario, M.cpuTotal(per), 'ms', split.node + split.postgres + split.nats);
      const statements = sqlTrace.since(sql);
      const transactions = sqlTrace.transactionsSince(tx);
      const sent = statements.reduce((n, s) => n + s.count, 0);
      c.add(scenario, M.sql(per), 'statements', sent / events);
      /** PostgreSQL's CPU per statement sent in the window (issue #29: against the floor's). */
      const pgPerStatement = (split.postgres * events) / sent;
      c.add(scenario, M.pgPerStatement, 'ms', pgPerStatement);
      c.add(
        scenario,
        M.transactions(per),
        'transactions',
        (transactions.explicit + transactions.single) / events,
      );
      return {
        pgPerStatement,
        transactionsPerEvent: {
          explicit: +(transactions.explicit / events).toFixed(3),
          singleStatement: +(transactions.single / events).toFixed(3),
        },
        statements: statements.slice(0, 30).map((s) => ({
          perEvent: +(s.count / events).toFixed(3),
          meanMs: +(s.ms / s.count).toFixed(3),
          text: s.text,
        })),
      };
    },
  };
}

/**
 * The LangGraph peer: in the bench's process, as the targets were set (issue #29), or with
 * `BENCH_PEER=process` in a process of its own (`PeerProcess`), so that `@langchain/core` does not
 * turn AsyncLocalStorage's promise hooks on in openq's (never for the targets).
 */
function startPeer(databaseUrl: string): Promise<Pick<LangGraphPeer, 'run' | 'peak' | 'stop'>> {
  return process.env.BENCH_PEER === 'process'
    ? PeerProcess.start(databaseUrl)
    : LangGraphPeer.start(databaseUrl);
}

/**
 * Scenarios 1, 1b, 2, 3, 6 and 7, interleaved run by run: in each run the floor and the batched
 * floor are measured, then ingest, answer→resume, the LangGraph peer and the HTTP burst right
 * after them, so every ratio compares figures taken within a minute of each other on the same
 * (noisy) machine. The floors run only when a scenario is compared with them (ingest, resume).
 */
export async function phaseStack(ctx: PhaseContext): Promise<void> {
  const { plan, collector: c, progress } = ctx;
  progress.step(
    'starting the stack (questions, gates, context, notifier, gateway), the floor and the LangGraph peer',
  );
  sqlTrace.install();
  // As deployed (issue #29): all five services, the notifier too — it consumes every question.
  // BENCH_SERVICES=questions,gates (say) measures what the others cost a cycle; never for the targets.
  const stack = await Stack.start({
    services: (process.env.BENCH_SERVICES ?? 'questions,gates,context,notifier').split(',') as never,
    env: { ...BENCH_GATEWAY_ENV },
  });
  // The test collectors parse every event; the bench has its own cheaper subscribers.
  stack.events.stop();
  stack.agentEvents.stop();
  const want = (s: string) => ctx.scenarios.includes(s);
  const floors = want('ingest') || want('resume');
  const floor = floors ? await Floor.start(stack.nc, stack.db.url) : null;
  const batched = floors ? await BatchedFloor.start(stack.nc, stack.db.url, plan.floorBatch) : null;
  const peerDb = want('peer') || want('peak') ? await createTestDatabase('openq_bench_peer') : null;
  const peer = peerDb ? await startPeer(peerDb.url) : null;
  progress.tick();
  const failed = new Set<string>();
  const ds = stack.service('questions').dataSource;
  const backends = databaseBackends((sql) => ds.query(sql));
  const meter = () => window(backends, stack.nats.port);
  const statements: Record<string, unknown> = {};
  ctx.details.statements = statements;
  try {
    for (let r = 1; r <= plan.runs; r++) {
      const tag = `r${r}${Date.now().toString(36)}`;
      let ft = { eventsPerSecond: Number.NaN };
      let bt = { eventsPerSecond: Number.NaN };
      let fl = { commitP50: Number.NaN };
      let floorPgPerStatement = Number.NaN;
      if (floor && batched) {
        progress.step(`run ${r}/${plan.runs}: floor, batched floor`);
        await settle(stack);
        const cpu = await meter();
        ft = await floor.throughput(plan.floorEvents, tag, plan.timeoutMs);
        const floorWindow = await cpu.close(c, S.floor, plan.floorEvents);
        statements[S.floor] = floorWindow;
        floorPgPerStatement = floorWindow.pgPerStatement;
        const latency = await floor.latency(plan.rate, plan.floorLatencyEvents, `${tag}l`, plan.timeoutMs);
        fl = latency;
        c.add(S.floor, M.floorThroughput, 'events/s', ft.eventsPerSecond);
        c.add(S.floor, M.floorCommitP50(plan), 'ms', latency.commitP50);
        c.add(S.floor, M.floorCommitP99(plan), 'ms', latency.commitP99);
        c.add(S.floor, M.floorConsumeP50(plan), 'ms', latency.consumeP50);
        c.add(S.floor, M.floorConsumeP99(plan), 'ms', latency.consumeP99);

        await settle(stack);
        const cpuB = await meter();
        const b = await batched.throughput(plan.floorBatchedEvents, `${tag}b`, plan.timeoutMs);
        statements[S.floorBatched] = await cpuB.close(c, S.floorBatched, plan.floorBatchedEvents);
        bt = b;
        c.add(S.floorBatched, M.floorBatchedThroughput(plan.floorBatch), 'events/s', b.eventsPerSecond);
        c.add(S.floorBatched, M.floorBatchSize, 'messages', b.meanBatch);
        c.add(S.floorBatched, M.floorBatchedPublished, 'events/s', b.publishedPerSecond);
        progress.tick();
      }

      if (want('ingest') && !failed.has(S.ingest)) {
        progress.step(`run ${r}/${plan.runs}: ingest (${plan.ingestEvents} declares)`);
        const ing = await attempt(ctx, S.ingest, async () => {
          await settle(stack);
          const cpu = await meter();
          const run = await ingestRun(stack, plan.ingestEvents, tag, plan.timeoutMs);
          await settle(stack); // the context service's share of each declare counts too
          statements[S.ingest] = await cpu.close(c, S.ingest, plan.ingestEvents, PER.declaration);
          return run;
        });
        if (ing) {
          c.add(S.ingest, M.ingestThroughput, 'events/s', ing.eventsPerSecond);
          c.add(S.ingest, M.ingestCommitted, 'events/s', ing.committedPerSecond);
          c.add(S.ingest, M.ingestRatio, '×', ing.eventsPerSecond / ft.eventsPerSecond);
          c.add(S.ingest, M.ingestBatchedRatio, '×', ing.eventsPerSecond / bt.eventsPerSecond);
        } else failed.add(S.ingest);
        progress.tick();
      }

      let openqRun: Awaited<ReturnType<typeof answerResumeRun>> | null = null;
      if (want('resume') && !failed.has(S.resume)) {
        progress.step(
          `run ${r}/${plan.runs}: park ${plan.answersAtRate + plan.answersSaturating} cycles, answer ${plan.answersAtRate} at ${plan.rate}/s`,
        );
        openqRun = await attempt(ctx, S.resume, async () => {
          await settle(stack);
          const cpu = await meter();
          const run = await answerResumeRun(
            stack,
            tag,
            plan.answersAtRate,
            plan.answersSaturating,
            plan.rate,
            plan.timeoutMs,
            plan.answersUnloaded,
          );
          await settle(stack);
          const cycles = plan.answersAtRate + plan.answersSaturating + plan.answersUnloaded;
          const resumeWindow = await cpu.close(c, S.resume, cycles, PER.cycle);
          statements[S.resume] = resumeWindow;
          c.add(S.resume, M.pgPerStatementRatio, '×', resumeWindow.pgPerStatement / floorPgPerStatement);
          return run;
        });
        if (openqRun) {
          c.add(S.resume, M.resumeP50(plan), 'ms', openqRun.p50);
          c.add(S.resume, M.resumeP90(plan), 'ms', openqRun.p90);
          c.add(S.resume, M.resumeP99(plan), 'ms', openqRun.p99);
          c.add(S.resume, M.resumeAchieved(plan), 'cycles/s', openqRun.achievedRate);
          c.add(S.resume, M.resumeFailed(plan), 'answers', openqRun.failedAtRate);
          c.add(S.resume, M.resumeSoloP50, 'ms', openqRun.unloadedP50);
          c.add(S.resume, M.resumeSoloP99, 'ms', openqRun.unloadedP99);
          c.add(S.resume, M.resumeBackToBackP50, 'ms', openqRun.backToBackP50);
          c.add(S.resume, M.resumeSoloRatio, '×', openqRun.unloadedP50 / fl.commitP50);
          c.add(S.resume, M.resumeHttpP50, 'ms', openqRun.httpP50);
          c.add(S.resume, M.resumeHttpP99, 'ms', openqRun.httpP99);
          c.add(S.resume, M.resumeRatio, '×', openqRun.p50 / fl.commitP50);
          c.add(S.resume, M.resumeParks, 'cycles/s', openqRun.parksPerSecond);
          c.add(S.resume, M.resumeResumes, 'cycles/s', openqRun.resumesPerSecond);
        } else failed.add(S.resume);
        progress.tick();
      }

      let openqPeak = Number.NaN;
      if (want('peak') && !failed.has(S.peak)) {
        const levels = peakLevels(plan);
        progress.step(
          `run ${r}/${plan.runs}: peak, ${levels.map((l) => `${l.answers} answers ${l.inFlight} in flight`).join(', ')}`,
        );
        const pk = await attempt(ctx, S.peak, async () => {
          await settle(stack);
          const cpu = await meter();
          const run = await peakRun(stack, `${tag}k`, levels, plan.timeoutMs);
          await settle(stack);
          statements[S.peak] = await cpu.close(c, S.peak, run.cycles, PER.cycle);
          return run;
        });
        if (pk) {
          for (const l of pk.levels) {
            c.add(S.peak, M.peakResumes(l.inFlight), 'cycles/s', l.resumesPerSecond);
            c.add(S.peak, M.peakFailed(l.inFlight), 'answers', l.failed);
          }
          openqPeak = Math.max(...pk.levels.map((l) => l.resumesPerSecond));
          c.add(S.peak, M.peakBest, 'cycles/s', openqPeak);
        } else failed.add(S.peak);
        progress.tick();
      }

      if (peer && want('peak') && !failed.has(S.peak)) {
        const pp = await attempt(ctx, S.peak, async () => {
          await settle(stack);
          return peer.peak(`${tag}k`, peakLevels(plan));
        });
        if (pp) {
          for (const l of pp) c.add(S.peak, M.peerPeakResumes(l.inFlight), 'resumes/s', l.resumesPerSecond);
          const best = Math.max(...pp.map((l) => l.resumesPerSecond));
          c.add(S.peak, M.peerPeakBest, 'resumes/s', best);
          if (Number.isFinite(openqPeak)) c.add(S.peak, M.ratioPeak, '×', openqPeak / best);
        } else failed.add(S.peak);
      }

      if (peer && want('peer') && !failed.has(S.peer)) {
        progress.step(`run ${r}/${plan.runs}: LangGraph peer (${plan.peerThreads} threads)`);
        const pr = await attempt(ctx, S.peer, async () => {
          await settle(stack);
          return peer.run(tag, plan.peerThreads, plan.rate, plan.peerUnloaded, plan.timeoutMs);
        });
        if (pr) {
          c.add(S.peer, M.peerParks, 'parks/s', pr.parksPerSecond);
          c.add(S.peer, M.peerResumes, 'resumes/s', pr.resumesPerSecond);
          c.add(S.peer, M.peerP50(plan), 'ms', pr.resumeP50);
          c.add(S.peer, M.peerP99(plan), 'ms', pr.resumeP99);
          c.add(S.peer, M.peerSoloP50, 'ms', pr.unloadedP50);
          c.add(S.peer, M.peerSoloP99, 'ms', pr.unloadedP99);
          if (openqRun) {
            c.add(S.peer, M.ratioP50, '×', openqRun.p50 / pr.resumeP50);
            c.add(S.peer, M.ratioP99, '×', openqRun.p99 / pr.resumeP99);
            c.add(S.peer, M.ratioParks, '×', openqRun.parksPerSecond / pr.parksPerSecond);
            c.add(S.peer, M.ratioResumes, '×', openqRun.resumesPerSecond / pr.resumesPerSecond);
            c.add(S.peer, M.ratioSolo, '×', openqRun.unloadedP50 / pr.unloadedP50);
          }
        } else failed.add(S.peer);
        progress.tick();
      }

      if (want('burst') && !failed.has(S.burst)) {
        const n = plan.burstDeclarations;
        progress.step(`run ${r}/${plan.runs}: burst (${n} declarations at once over HTTP)`);
        const burst = await attempt(ctx, S.burst, async () => {
          await settle(stack);
          const cpu = await meter();
          const run = await burstRun(stack, n, `${tag}h`);
          await settle(stack); // the context service's share of each declaration counts too
          statements[S.burst] = await cpu.close(c, S.burst, n, PER.httpDeclaration);
          return run;
        });
        if (burst) addBurst(c, S.burst, n, burst);
        else failed.add(S.burst);
        progress.tick();
      }

      if (want('shed') && !failed.has(S.shed)) {
        // The gateway's bound on reads in flight (GATEWAY_MAX_READS_IN_FLIGHT, 256): a burst of
        // the bound and one of ten times it, against the stack's gateway (event-loop shedding
        // off, as in tests) and a second gateway on the same services with the production
        // setting (GATEWAY_MAX_EVENT_LOOP_DELAY_MS=1000), in the same run.
        const bound = stack.config.admission.reads;
        const token = stack.token('bench', 'shed', 'viewer');
        // It has a probe port too (issue #27): /healthz there and on the main port is timed during
        // each burst.
        const shedding = await startGateway(
          {
            ...stack.config,
            probePort: 0,
            admission: { ...stack.config.admission, maxEventLoopDelayMs: 1000 },
          },
          { httpPort: 0, exitOnFailure: false, handleSignals: false, logLevel: 'silent' },
        );
        const sheddingUrl = `http://127.0.0.1:${(shedding.getHttpServer().address() as AddressInfo).port}`;
        const probeUrl = `http://127.0.0.1:${probePortOf(shedding) ?? 0}/healthz`;
        try {
          for (const [label, baseUrl] of [
            ['loop shedding off', stack.baseUrl],
            ['loop shedding at 1 s', sheddingUrl],
          ] as const) {
            for (const n of [bound, bound * 10]) {
              progress.step(`run ${r}/${plan.runs}: read burst (${n} lists at once, ${label})`);
              const run = await attempt(ctx, S.shed, async () => {
                await settle(stack);
                return readBurst(
                  { baseUrl },
                  'shed',
                  token,
                  n,
                  baseUrl === sheddingUrl
                    ? { 'main port': `${sheddingUrl}/healthz`, 'probe port': probeUrl }
                    : {},
                );
              });
              if (!run) {
                failed.add(S.shed);
                break;
              }
              const name = (metric: string) => `${metric} (${label})`;
              c.add(S.shed, name(M.shedAdmitted(n)), 'requests', run.admitted);
              c.add(S.shed, name(M.shedShed(n)), 'requests', run.shed);
              c.add(S.shed, name(M.shedOther(n)), 'requests', run.other);
              c.add(S.shed, name(M.shedAdmittedP50(n)), 'ms', run.admittedP50);
              c.add(S.shed, name(M.shedAdmittedP99(n)), 'ms', run.admittedP99);
              for (const [where, h] of Object.entries(run.health)) {
                c.add(S.shed, M.healthP50(n, where), 'ms', h.p50);
                c.add(S.shed, M.healthP99(n, where), 'ms', h.p99);
                c.add(S.shed, M.healthFailed(n, where), 'requests', h.failed);
              }
            }
          }
        } finally {
          await shedding.close();
        }
        progress.tick();
      }
    }
    progress.step('stopping the stack');
  } finally {
    await peer?.stop().catch(() => undefined);
    await peerDb?.drop().catch(() => undefined);
    await floor?.stop().catch(() => undefined);
    await batched?.stop().catch(() => undefined);
    await stack.stop();
  }
  if (want('burst')) await deployedBursts(ctx);
  progress.tick();
}

/**
 * The burst again with each service in a process of its own, as deployed (`DEPLOYED`), once the
 * in-process stack has stopped: one process cannot show what a service's own CPU does to the
 * gateway's deadline (a burst in one project timed out there, docs/performance.md, session 16).
 * No ratio reads it, so it runs after the others rather than between them, and its five idle
 * processes are not there while the others are measured.
 */
async function deployedBursts(ctx: PhaseContext): Promise<void> {
  const { plan, collector: c, progress } = ctx;
  const n = plan.burstDeclarations;
  progress.step(`burst as deployed: starting the five services, each in a process of its own`);
  const system = await attempt(ctx, S.burstDeployed, () =>
    ProcessSystem.start(3600, DEPLOYED, { ...BENCH_GATEWAY_ENV }),
  );
  if (!system) return;
  try {
    // Fresh processes compile as they go (the first burst of a cold set took twice as long); the
    // in-process stack is warm from the scenarios before. A smaller burst warms them alike.
    progress.step(`burst as deployed: warming up (${Math.ceil(n / 10)} declarations)`);
    if (
      !(await attempt(ctx, S.burstDeployed, () => burstRun(system, Math.ceil(n / 10), `dw${Date.now()}`, 1)))
    )
      return;
    for (let r = 1; r <= plan.runs; r++) {
      progress.step(`run ${r}/${plan.runs}: burst as deployed (${n} declarations at once over HTTP)`);
      const done = await attempt(ctx, S.burstDeployed, () =>
        deployedBurst(system, n, `d${r}${Date.now().toString(36)}`),
      );
      if (!done) break;
      addBurst(c, S.burstDeployed, n, done.run);
      const per = PER.httpDeclaration;
      c.add(S.burstDeployed, M.cpuDeployed(per), 'ms', done.cpu.node);
      c.add(S.burstDeployed, M.cpu('postgres', per), 'ms', done.cpu.postgres);
      c.add(S.burstDeployed, M.cpu('nats', per), 'ms', done.cpu.nats);
      c.add(S.burstDeployed, M.cpuTotal(per), 'ms', done.cpu.node + done.cpu.postgres + done.cpu.nats);
    }
  } finally {
    await system.stop();
  }
}
