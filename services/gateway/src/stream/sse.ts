/**
 * Server-Sent Events framing (WHATWG HTML §9.2). Pure: the stream controller writes what these
 * return. A field value never holds a line break (that would end the field early), so `event`
 * is refused with one and `data` is split into one `data:` line per line.
 */

export interface SseMessage {
  /** The `id:` field (we use the JetStream stream sequence); omitted: the client keeps its last id. */
  id?: number;
  event: string;
  data: string;
}

const LINE_BREAK = /\r\n|\r|\n/;

export function sseMessage(message: SseMessage): string {
  if (LINE_BREAK.test(message.event) || message.event === '')
    throw new Error(`an SSE event name must be one non-empty line: ${JSON.stringify(message.event)}`);
  const id = message.id === undefined ? '' : `id: ${message.id}\n`;
  const data = message.data
    .split(LINE_BREAK)
    .map((line) => `data: ${line}\n`)
    .join('');
  return `${id}event: ${message.event}\n${data}\n`;
}

/** A comment line: ignored by `EventSource`, keeps proxies and load balancers from timing out. */
export function sseComment(text: string): string {
  return `: ${text.replace(/\r\n|\r|\n/g, ' ')}\n\n`;
}

/** How long the browser waits before reconnecting after the stream drops. */
export function sseRetry(ms: number): string {
  return `retry: ${Math.max(0, Math.floor(ms))}\n\n`;
}

/**
 * The `Last-Event-ID` request header as a stream sequence, or `null` when absent or not one
 * (a garbled id starts a fresh stream rather than failing: the page reloads its lists anyway).
 */
export function parseLastEventId(header: string | string[] | undefined): number | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (typeof value !== 'string' || !/^\d{1,15}$/.test(value.trim())) return null;
  return Number(value.trim());
}
