import { Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { NatsConnection } from 'nats';
import { Counter, Gauge, register } from 'prom-client';
import type { RpcClient } from '@openq/messaging';
import { CORRELATION_HEADER } from '@openq/platform';
import { httpError, Reason } from '../http/http-error';
import { readMissed } from './catch-up';
import { EventTail, type TailSubscription } from './event-tail';
import { CallerQuota } from './caller-quota';
import { Limiter } from './limiter';
import { OpenCounts } from './open-counts';
import { parseLastEventId } from './sse';
import { SseSession } from './sse-session';
import type { StreamSettings } from './stream.config';

/**
 * 503 when this process already holds `GATEWAY_SSE_MAX_STREAMS` streams; 429 when the caller
 * (its user, or its address) holds its share (`GATEWAY_SSE_MAX_STREAMS_PER_USER` / `_PER_ADDRESS`).
 */
export const TOO_MANY_STREAMS = 'muitas_conexoes_ao_vivo';

function metric<T>(name: string, make: () => T): T {
  return (register.getSingleMetric(name) as T | undefined) ?? make();
}

const openStreams = metric(
  'openq_gateway_sse_streams',
  () => new Gauge({ name: 'openq_gateway_sse_streams', help: 'Live event streams (SSE) open now' }),
);
const refusedStreams = metric(
  'openq_gateway_sse_refused_total',
  () =>
    new Counter({
      name: 'openq_gateway_sse_refused_total',
      help: 'Live streams refused, by reason',
      labelNames: ['reason'],
    }),
);
const resets = metric(
  'openq_gateway_sse_resets_total',
  () =>
    new Counter({
      name: 'openq_gateway_sse_resets_total',
      help: 'Reconnections whose missed events could not all be replayed (told to reload)',
    }),
);

/** The session label of a stream over several projects (not an id: ids never hold `*`). */
const ACROSS = '*';

/**
 * The live streams of this process (SPEC §4 `GET /projects/:projectId/stream`): a cap, one
 * shared tail of OPENQ_EVENTS, a catch-up from JetStream for reconnections, and the shared
 * `open_count` lookups. Closes every stream before the HTTP server stops.
 */
export class LiveStreams implements BeforeApplicationShutdown {
  private readonly logger = new Logger('LiveStreams');
  private readonly sessions = new Set<SseSession>();
  private readonly tail: EventTail;
  private readonly counts: OpenCounts;
  private readonly catchUps: Limiter;
  private readonly quota: CallerQuota;
  private opening = 0;

  constructor(
    private readonly nc: NatsConnection,
    rpc: RpcClient,
    private readonly settings: StreamSettings,
  ) {
    this.tail = new EventTail(nc);
    this.counts = new OpenCounts(rpc);
    this.catchUps = new Limiter(settings.catchUpConcurrency);
    this.quota = new CallerQuota({
      perUser: settings.maxStreamsPerUser,
      perAddress: settings.maxStreamsPerAddress,
    });
  }

  /**
   * Opens the stream on the raw response. Refusals before that (cap, no event stream) are
   * ordinary HTTP errors; after it, a failure just ends the stream and the browser reconnects.
   */
  async open(
    projectIds: string | readonly string[],
    userId: string,
    request: FastifyRequest,
    reply: FastifyReply,
    tokenExpiresAtMs: number | null,
  ): Promise<void> {
    if (this.sessions.size + this.opening >= this.settings.maxStreams) {
      refusedStreams.inc({ reason: 'cap' });
      void reply.header('retry-after', '5');
      throw httpError(
        503,
        TOO_MANY_STREAMS,
        'this server has as many live streams open as it allows; try again in a few seconds',
      );
    }
    const share = this.quota.take(userId, request.ip);
    if ('full' in share) {
      refusedStreams.inc({ reason: `per_${share.full}` });
      void reply.header('retry-after', '30');
      throw httpError(
        429,
        TOO_MANY_STREAMS,
        share.full === 'user'
          ? `you already have ${this.settings.maxStreamsPerUser} live streams open on this server; close a tab or try again later`
          : `this address already has ${this.settings.maxStreamsPerAddress} live streams open on this server; try again later`,
      );
    }
    try {
      await this.openWithin(projectIds, request, reply, tokenExpiresAtMs, share.release);
    } catch (error) {
      share.release();
      throw error;
    }
  }

  private async openWithin(
    projectIds: string | readonly string[],
    request: FastifyRequest,
    reply: FastifyReply,
    tokenExpiresAtMs: number | null,
    release: () => void,
  ): Promise<void> {
    const lastEventId = parseLastEventId(request.headers['last-event-id']);
    // [openq] issue #18 a stream over several projects (`/me/stream`) fans in their events in
    // stream order; it sends no `open_count` (each project has its own) and does not replay what a
    // reconnecting client missed: `ready` says `reset` and the page reloads its lists.
    const single = typeof projectIds === 'string' ? projectIds : null;
    const session = new SseSession(reply.raw, single ?? ACROSS, lastEventId, this.settings, (stamp) =>
      single === null ? undefined : this.sendCount(session, stamp),
    );
    this.opening++;
    let subscription: TailSubscription;
    try {
      subscription = await this.tail.subscribe(projectIds, (event) => session.deliver(event));
    } catch (error) {
      refusedStreams.inc({ reason: 'unavailable' });
      this.logger.warn(`live stream refused: ${String(error)}`);
      throw httpError(
        503,
        Reason.serviceUnavailable,
        'live updates are unavailable right now; try again shortly',
      );
    } finally {
      this.opening--;
    }
    const { position, unsubscribe } = subscription;
    this.sessions.add(session);
    openStreams.inc();
    session.onClose(() => {
      release();
      unsubscribe();
      this.sessions.delete(session);
      openStreams.dec();
    });
    reply.hijack();
    session.open({ [CORRELATION_HEADER]: request.id });
    if (tokenExpiresAtMs !== null) session.closeAt(tokenExpiresAtMs, Date.now());
    void this.catchUp(session, lastEventId, position);
  }

  async beforeApplicationShutdown(): Promise<void> {
    for (const session of [...this.sessions]) session.close();
    await this.tail.stop();
  }

  /** Replays what a reconnecting client missed, then lets the live events through. */
  private async catchUp(session: SseSession, lastEventId: number | null, position: number): Promise<void> {
    try {
      let reset = false;
      if (lastEventId !== null && lastEventId < position && session.projectId === ACROSS) {
        reset = true;
        resets.inc();
      } else if (lastEventId !== null && lastEventId < position) {
        const missed = await this.catchUps.run(() =>
          session.isClosed
            ? Promise.resolve({ events: [], complete: true })
            : readMissed(this.nc, session.projectId, lastEventId, position, {
                max: this.settings.catchUpMax,
                signal: session.signal,
              }),
        );
        if (missed.complete) session.replay(missed.events);
        else {
          reset = true;
          resets.inc();
        }
      }
      session.ready(position, { resumed: lastEventId !== null, reset });
    } catch (error) {
      this.logger.warn(`catch-up failed, the client will reconnect: ${String(error)}`);
      session.close();
    }
  }

  private sendCount(session: SseSession, stamp: number): void {
    void this.counts.get(session.projectId, stamp).then((open) => {
      if (open !== null) session.count(open, stamp);
    });
  }
}
