import { AgentEvent, eventSubject, makeEnvelope, STREAMS } from '@openq/contracts';
import { encodeJson } from '@openq/messaging';
import type { Stack } from '../../support/stack';
import { declareData } from '../support/payloads';
import { closedLoop, until } from '../support/load';
import { now } from '../support/stats';
import { Tap } from '../support/tap';

export interface IngestRun {
  /** Declares per second until each one's `question.declared` reached a subscriber. */
  eventsPerSecond: number;
  /** Declares per second until each one's transaction (inbox, log, projection, outbox) committed. */
  committedPerSecond: number;
  events: number;
}

/** The questions service's declares handled so far (all its consumers; only declares flow here). */
function handled(stack: Stack): number {
  return stack.service('questions').server.consumerRunners.reduce((n, r) => n + r.handled, 0);
}

/**
 * Sustained `agent.question.declare` through the whole stack: the engine publishes (64 PubAcks
 * outstanding, like the floor), the questions service applies each exactly once (inbox, log,
 * projection, outbox in one transaction), the relay publishes `question.declared`, and a
 * subscriber counts them; the context service consumes them too, as deployed.
 */
export async function ingestRun(
  stack: Stack,
  events: number,
  tag: string,
  timeoutMs: number,
): Promise<IngestRun> {
  let delivered = 0;
  const tap = await Tap.start(stack.nc, STREAMS.openqEvents.name, 'question.declared.>', () => {
    delivered++;
  });
  try {
    const js = stack.nc.jetstream();
    const base = handled(stack);
    let committedAt = 0;
    const started = now();
    const watch = until(() => handled(stack) - base >= events, 'commits', timeoutMs).then(() => {
      committedAt = now();
    });
    await closedLoop(events, 64, async (i) => {
      const projectId = `p${i % 10}`;
      const envelope = makeEnvelope(AgentEvent.QuestionDeclare, projectId, declareData(i, tag));
      await js.publish(eventSubject(AgentEvent.QuestionDeclare, projectId), encodeJson(envelope), {
        msgID: envelope.eventId,
      });
    });
    await until(() => delivered >= events, `${events} question.declared`, timeoutMs);
    await watch;
    const seconds = (now() - started) / 1000;
    return {
      eventsPerSecond: events / seconds,
      committedPerSecond: events / ((committedAt - started) / 1000),
      events,
    };
  } finally {
    tap.stop();
  }
}
