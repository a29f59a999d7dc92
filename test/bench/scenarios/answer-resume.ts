import { AgentEvent, eventSubject, makeEnvelope, STREAMS } from '@openq/contracts';
import { encodeJson } from '@openq/messaging';
import type { NatsConnection } from 'nats';
import type { DevTokenRole } from '../../../tools/token';
import { http as httpRequest } from '../support/http';
import { BENCH_USER, gateStartedData, verdictData } from '../support/payloads';
import { closedLoop, openLoop, until } from '../support/load';
import { Latency, now } from '../support/stats';
import { untilServicesIdle } from '../support/idle';
import { Tap } from '../support/tap';

export interface AnswerResumeRun {
  /** Cycles parked per second (gate.started + a needs_user_decision verdict → gate.rescue_parked). */
  parksPerSecond: number;
  /** From the answer request being due to `gate.resumed` reaching a subscriber, at `rate`/s. */
  p50: number;
  p90: number;
  p99: number;
  /** The HTTP answer alone (request → 200), same requests. */
  httpP50: number;
  httpP99: number;
  /** Cycles resumed per second while answers were offered at `rate`/s (below it: saturated). */
  achievedRate: number;
  /** Answers at `rate` the gateway failed with 5xx (the questions service did not answer in time). */
  failedAtRate: number;
  /** Answers 16 at a time (closed loop) until every `gate.resumed` arrived. */
  resumesPerSecond: number;
  /** One answer at a time, each waiting for its `gate.resumed`: the path's own latency. */
  unloadedP50: number;
  unloadedP99: number;
  /** One answer at a time, each sent as soon as the previous one resumed (its tail still handled). */
  backToBackP50: number;
  samples: number;
}

/** What the scenario needs of a running openq: the in-process Stack, or services in processes of their own. */
export interface RunningSystem {
  nc: NatsConnection;
  baseUrl: string;
  token(user: string, project: string, role?: DevTokenRole): string;
}

const PROJECTS = 10;
const projectOf = (i: number) => `p${i % PROJECTS}`;

/**
 * Park → answer → resume through the whole stack. `parked` cycles are opened and parked on a
 * user decision by agent events, as the engine would; then `atRate` of them are answered by
 * HTTP (the session author's click, `aceitarSugestao`) at `rate`/s open-loop through the
 * gateway, timing each until its `gate.resumed` is delivered to a JetStream subscriber (HDR
 * histogram); the rest are answered 16 at a time for the resume throughput.
 */
export async function answerResumeRun(
  stack: RunningSystem,
  tag: string,
  atRate: number,
  saturate: number,
  rate: number,
  timeoutMs: number,
  unloaded = 0,
): Promise<AnswerResumeRun> {
  const total = atRate + saturate + unloaded;
  const parked = new Map<string, string[]>();
  const resumedAt = new Map<string, number>();
  const due = new Map<string, number>();
  const latency = new Latency();
  const tap = await Tap.start(stack.nc, STREAMS.openqEvents.name, 'gate.>', (m) => {
    if (m.subject.startsWith('gate.rescue_parked.')) {
      const data = m.json<{ data: { taskId: string; questionIds: string[] } }>().data;
      parked.set(data.taskId, data.questionIds);
    } else if (m.subject.startsWith('gate.resumed.')) {
      const { taskId } = m.json<{ data: { taskId: string } }>().data;
      const t = now();
      resumedAt.set(taskId, t);
      const d = due.get(taskId);
      if (d !== undefined) latency.record(t - d);
    }
  });
  try {
    const taskIds = Array.from({ length: total }, (_, i) => `T-${tag}-${i}`);
    const t0 = now();
    await publishParks(stack, tag, taskIds);
    await until(() => parked.size >= total, `${total} gate.rescue_parked`, timeoutMs, 5);
    const parksPerSecond = total / ((now() - t0) / 1000);

    const http = new Latency();
    let failed: string | null = null;
    /** Answers the gateway failed with 5xx (an overloaded system times out: 504): counted, not fatal. */
    const overloaded = new Set<string>();
    const post = answerer(stack);
    const answer = async (i: number): Promise<void> => {
      const taskId = taskIds[i]!;
      const t = now();
      const res = await post(i, parked.get(taskId)![0]!);
      if (i < atRate) http.record(now() - t);
      if (res.status >= 500) overloaded.add(taskId);
      else if (res.status !== 200) failed = `answer ${taskId} → ${res.status} ${res.body.slice(0, 200)}`;
    };
    /** Every cycle of [from, to) resumed, or its answer failed with 5xx (it may still resume later). */
    const settled = (from: number, to: number) => {
      for (let k = from; k < to; k++)
        if (!resumedAt.has(taskIds[k]!) && !overloaded.has(taskIds[k]!)) return false;
      return true;
    };

    await openLoop(rate, atRate, (i, at) => {
      due.set(taskIds[i]!, at);
      answer(i).catch((error: unknown) => (failed = String(error)));
    });
    await until(() => failed !== null || settled(0, atRate), `${atRate} gate.resumed`, timeoutMs, 5);
    if (failed) throw new Error(`bench: ${failed}`);
    const resumedAtRate = taskIds.slice(0, atRate).filter((t) => resumedAt.has(t));
    const lastResumed = Math.max(...resumedAtRate.map((t) => resumedAt.get(t)!));
    const achievedRate = resumedAtRate.length / ((lastResumed - due.get(taskIds[0]!)!) / 1000);
    const failedAtRate = overloaded.size;

    const t1 = now();
    await closedLoop(saturate, 16, (k) => answer(atRate + k));
    await until(
      () => failed !== null || settled(atRate, atRate + saturate),
      `${saturate} gate.resumed`,
      timeoutMs,
      5,
    );
    if (failed) throw new Error(`bench: ${failed}`);
    const resumesPerSecond =
      taskIds.slice(atRate, atRate + saturate).filter((t) => resumedAt.has(t)).length / ((now() - t1) / 1000);

    const alone = new Latency();
    const backToBack = new Latency();
    for (let k = atRate + saturate; k < total; k++) {
      // Every other answer meets an idle system (the path's own latency); the others follow the
      // previous resume at once, while the services still handle its events (back to back).
      const idle = (k - atRate - saturate) % 2 === 0;
      if (idle) await untilServicesIdle(stack.nc, timeoutMs);
      const t = now();
      await answer(k);
      await until(
        () => failed !== null || resumedAt.has(taskIds[k]!) || overloaded.has(taskIds[k]!),
        `gate.resumed of ${taskIds[k]!}`,
        timeoutMs,
        0.2,
      );
      if (resumedAt.has(taskIds[k]!)) (idle ? alone : backToBack).record(resumedAt.get(taskIds[k]!)! - t);
    }
    if (failed) throw new Error(`bench: ${failed}`);

    return {
      parksPerSecond,
      p50: latency.p(50),
      p90: latency.p(90),
      p99: latency.p(99),
      httpP50: http.p(50),
      httpP99: http.p(99),
      achievedRate,
      failedAtRate,
      resumesPerSecond,
      unloadedP50: alone.p(50),
      unloadedP99: alone.p(99),
      backToBackP50: backToBack.p(50),
      samples: latency.count,
    };
  } finally {
    tap.stop();
  }
}

/** Publishes, as the engine would, `gate.started` and a needs_user_decision verdict for each task (32 at once). */
async function publishParks(stack: RunningSystem, tag: string, taskIds: readonly string[]): Promise<void> {
  const js = stack.nc.jetstream();
  await closedLoop(taskIds.length, 32, async (i) => {
    const projectId = projectOf(i);
    const started = makeEnvelope(AgentEvent.GateStarted, projectId, gateStartedData(taskIds[i]!));
    await js.publish(eventSubject(AgentEvent.GateStarted, projectId), encodeJson(started), {
      msgID: started.eventId,
    });
    const verdict = makeEnvelope(AgentEvent.QaVerdict, projectId, verdictData(taskIds[i]!, `R-${tag}-${i}`));
    await js.publish(eventSubject(AgentEvent.QaVerdict, projectId), encodeJson(verdict), {
      msgID: verdict.eventId,
    });
  });
}

/** The session author's click on cycle `i`'s question (`aceitarSugestao`) through the gateway. */
function answerer(stack: RunningSystem) {
  const tokens = Array.from({ length: PROJECTS }, (_, p) => stack.token(BENCH_USER, `p${p}`, 'viewer'));
  return (i: number, questionId: string) =>
    httpRequest(
      'POST',
      `${stack.baseUrl}/projects/${projectOf(i)}/open-questions/${questionId}/answer`,
      { authorization: `Bearer ${tokens[i % PROJECTS]!}`, 'content-type': 'application/json' },
      '{"aceitarSugestao":true}',
    );
}

export interface PeakLevel {
  /** Answers in flight (HTTP requests outstanding, closed loop). */
  inFlight: number;
  answers: number;
  /** Cycles resumed per second, from the first answer sent until every `gate.resumed` arrived. */
  resumesPerSecond: number;
  /** Answers the gateway failed with 5xx (not resumed, not counted in the rate). */
  failed: number;
}

/**
 * The peak (issue #29): for each level, `answers` cycles parked beforehand, then answered with
 * `inFlight` requests outstanding at any time until every one has resumed. The best level is the
 * system's peak on this machine.
 */
export async function peakRun(
  stack: RunningSystem,
  tag: string,
  levels: readonly { inFlight: number; answers: number }[],
  timeoutMs: number,
): Promise<{ levels: PeakLevel[]; cycles: number }> {
  const total = levels.reduce((n, l) => n + l.answers, 0);
  const parked = new Map<string, string>();
  const resumed = new Set<string>();
  const tap = await Tap.start(stack.nc, STREAMS.openqEvents.name, 'gate.>', (m) => {
    if (m.subject.startsWith('gate.rescue_parked.')) {
      const data = m.json<{ data: { taskId: string; questionIds: string[] } }>().data;
      parked.set(data.taskId, data.questionIds[0]!);
    } else if (m.subject.startsWith('gate.resumed.')) {
      resumed.add(m.json<{ data: { taskId: string } }>().data.taskId);
    }
  });
  try {
    const taskIds = Array.from({ length: total }, (_, i) => `P-${tag}-${i}`);
    await publishParks(stack, `${tag}p`, taskIds);
    await until(() => parked.size >= total, `${total} gate.rescue_parked`, timeoutMs, 5);
    const post = answerer(stack);
    const out: PeakLevel[] = [];
    let from = 0;
    for (const { inFlight, answers } of levels) {
      const ids = taskIds.slice(from, from + answers);
      const overloaded = new Set<string>();
      let failed: string | null = null;
      const t0 = now();
      await closedLoop(answers, inFlight, async (k) => {
        const res = await post(from + k, parked.get(ids[k]!)!);
        if (res.status >= 500) overloaded.add(ids[k]!);
        else if (res.status !== 200) failed = `answer ${ids[k]!} → ${res.status} ${res.body.slice(0, 200)}`;
      });
      await until(
        () => failed !== null || ids.every((t) => resumed.has(t) || overloaded.has(t)),
        `${answers} gate.resumed at ${inFlight} in flight`,
        timeoutMs,
        5,
      );
      if (failed) throw new Error(`bench: ${failed}`);
      const done = ids.filter((t) => resumed.has(t)).length;
      out.push({
        inFlight,
        answers,
        resumesPerSecond: done / ((now() - t0) / 1000),
        failed: overloaded.size,
      });
      from += answers;
    }
    return { levels: out, cycles: total };
  } finally {
    tap.stop();
  }
}
