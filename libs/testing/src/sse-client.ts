import type { EventEnvelope } from '@openq/contracts';
import { waitFor } from './wait-for';

export interface SseEvent {
  id: string | null;
  event: string;
  data: string;
}

/**
 * Test helper: a minimal EventSource over fetch (it can send any header, `Last-Event-ID`
 * included). Records events and comments until closed or until the server ends the stream.
 */
export class SseClient {
  readonly events: SseEvent[] = [];
  readonly comments: string[] = [];
  ended = false;

  private constructor(
    readonly status: number,
    readonly headers: Headers,
    private readonly abort: AbortController,
  ) {}

  static async open(url: string, headers: Record<string, string>): Promise<SseClient> {
    const abort = new AbortController();
    const response = await fetch(url, { headers, signal: abort.signal });
    const client = new SseClient(response.status, response.headers, abort);
    if (response.ok && response.body) void client.pump(response.body);
    else {
      client.ended = true;
      await response.body?.cancel();
    }
    return client;
  }

  /** Events that carry an envelope (not `ready` / `open_count`), with their sequence. */
  get envelopes(): { seq: number; envelope: EventEnvelope }[] {
    return this.events
      .filter((e) => e.event !== 'ready' && e.event !== 'open_count')
      .map((e) => ({ seq: Number(e.id), envelope: JSON.parse(e.data) as EventEnvelope }));
  }

  of(type: string): SseEvent[] {
    return this.events.filter((e) => e.event === type);
  }

  until<T>(
    condition: () => T,
    what: string,
    timeoutMs = 15_000,
  ): Promise<Exclude<T, false | null | undefined>> {
    return waitFor(condition, { what, timeoutMs });
  }

  /** The `ready` event: the catch-up is over and live events follow. */
  ready(): Promise<SseEvent> {
    return this.until(() => this.of('ready')[0], 'the ready event');
  }

  close(): void {
    this.abort.abort();
  }

  private async pump(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        for (let cut = buffer.indexOf('\n\n'); cut >= 0; cut = buffer.indexOf('\n\n')) {
          this.block(buffer.slice(0, cut));
          buffer = buffer.slice(cut + 2);
        }
      }
    } catch {
      // aborted
    }
    this.ended = true;
  }

  private block(text: string): void {
    const event: SseEvent = { id: null, event: 'message', data: '' };
    const data: string[] = [];
    let fields = 0;
    for (const line of text.split('\n')) {
      if (line.startsWith(':')) {
        this.comments.push(line.slice(1).trim());
        continue;
      }
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'id') event.id = value;
      else if (field === 'event') event.event = value;
      else if (field === 'data') data.push(value);
      else continue;
      fields++;
    }
    if (fields === 0 || data.length === 0) return;
    event.data = data.join('\n');
    this.events.push(event);
  }
}
