import type { ServerResponse } from 'node:http';
import { COUNT_TRIGGERS, OPEN_COUNT_EVENT, READY_EVENT, type LiveEvent } from './live-events';
import { sseComment, sseMessage, sseRetry } from './sse';

export interface SessionSettings {
  heartbeatMs: number;
  /** Bytes the socket may hold unsent before the client counts as too slow and is cut off. */
  maxUnsentBytes: number;
  /** Live events held while catching up before the client is cut off. */
  maxHeld: number;
  /** The browser's reconnection delay (`retry:`). */
  retryMs: number;
}

/** The farthest a timer can be set (about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * One client's event stream. It never writes an event twice or out of order: an event is
 * written only when its stream sequence is past the last one written (`position`). Until
 * `ready`, live events are held so that the catch-up (older events) goes out first.
 *
 * A client that cannot keep up is disconnected rather than buffered without bound: its browser
 * reconnects with `Last-Event-ID` and catches up from JetStream, so nothing is lost.
 */
export class SseSession {
  private readonly abort = new AbortController();
  /** The last stream sequence written (or the client's Last-Event-ID), -1 for none yet. */
  private position: number;
  private countStamp = -1;
  private held: LiveEvent[] | null = [];
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly closeHandlers: (() => void)[] = [];
  private closed = false;

  constructor(
    private readonly out: ServerResponse,
    readonly projectId: string,
    lastEventId: number | null,
    private readonly settings: SessionSettings,
    /** Asks for an `open_count` after a question event with this sequence (see `count`). */
    private readonly wantCount: (stamp: number) => void,
  ) {
    this.position = lastEventId ?? -1;
  }

  get signal(): AbortSignal {
    return this.abort.signal;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Sends the response head; from here on the response is the stream. */
  open(headers: Record<string, string>): void {
    this.out.on('close', () => this.close());
    // The client may have gone while the stream was being set up: its 'close' has been and gone.
    if (!this.out.socket || this.out.socket.destroyed) return this.close();
    this.out.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      ...headers,
    });
    this.out.socket?.setNoDelay(true);
    this.write(sseRetry(this.settings.retryMs));
    const beat = setInterval(() => this.write(sseComment('keep-alive')), this.settings.heartbeatMs);
    beat.unref();
    this.timers.push(beat);
  }

  /** Ends the stream at this instant (the token's expiry): the client must come back with a valid one. */
  closeAt(epochMs: number, nowMs: number): void {
    if (this.closed) return;
    const timer = setTimeout(() => this.close(), Math.max(0, Math.min(MAX_TIMER_MS, epochMs - nowMs)));
    timer.unref();
    this.timers.push(timer);
  }

  /** A live event from the tail. */
  deliver(event: LiveEvent): void {
    if (this.closed) return;
    if (this.held) {
      if (this.held.length >= this.settings.maxHeld) return this.close();
      this.held.push(event);
      return;
    }
    this.writeEvent(event, true);
  }

  /** Events missed while disconnected, oldest first (no `open_count` after each: `ready` sends one). */
  replay(events: readonly LiveEvent[]): void {
    for (const event of events) this.writeEvent(event, false);
  }

  /**
   * Catch-up is over: says so with `id:` = the resume point (so that the browser's next
   * reconnection resumes from here even if no event of the project came), writes the held
   * live events, and asks for the current open count.
   */
  ready(livePosition: number, info: { resumed: boolean; reset: boolean }): void {
    if (this.closed) return;
    this.position = Math.max(this.position, livePosition);
    this.write(sseMessage({ id: this.position, event: READY_EVENT, data: JSON.stringify(info) }));
    this.wantCount(this.position);
    const held = this.held ?? [];
    this.held = null;
    for (const event of held) this.writeEvent(event, true);
  }

  /** The open count fetched for `stamp`; an answer older than one already written is dropped. */
  count(open: number, stamp: number): void {
    if (this.closed || stamp < this.countStamp) return;
    this.countStamp = stamp;
    this.write(sseMessage({ event: OPEN_COUNT_EVENT, data: JSON.stringify({ open }) }));
  }

  onClose(handler: () => void): void {
    if (this.closed) handler();
    else this.closeHandlers.push(handler);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.abort.abort();
    if (!this.out.writableEnded) this.out.end();
    for (const handler of this.closeHandlers.splice(0)) handler();
  }

  private writeEvent(event: LiveEvent, live: boolean): void {
    if (event.seq <= this.position) return;
    this.position = event.seq;
    this.write(event.frame);
    if (live && COUNT_TRIGGERS.has(event.type)) this.wantCount(event.seq);
  }

  private write(chunk: string): void {
    if (this.closed || this.out.destroyed) return;
    this.out.write(chunk);
    if (this.out.writableLength > this.settings.maxUnsentBytes) this.close();
  }
}
