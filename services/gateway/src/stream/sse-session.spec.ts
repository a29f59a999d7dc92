import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import type { LiveEvent } from './live-events';
import { SseSession, type SessionSettings } from './sse-session';

/** Just enough of a ServerResponse: records what is written. */
class FakeResponse extends EventEmitter {
  chunks: string[] = [];
  status = 0;
  headers: Record<string, string> = {};
  writableEnded = false;
  destroyed = false;
  writableLength = 0;
  socket: { destroyed: boolean; setNoDelay(): void } | null = {
    destroyed: false,
    setNoDelay: () => undefined,
  };

  writeHead(status: number, headers: Record<string, string>): this {
    this.status = status;
    this.headers = headers;
    return this;
  }

  write(chunk: string): boolean {
    this.chunks.push(chunk);
    return true;
  }

  end(): this {
    this.writableEnded = true;
    this.emit('close');
    return this;
  }

  /** The SSE messages written, as `<id>:<event>` (comments and retry left out). */
  get written(): string[] {
    return this.chunks
      .filter((c) => c.includes('event: '))
      .map((c) => `${/^id: (\d+)/m.exec(c)?.[1] ?? '-'}:${/^event: (.+)$/m.exec(c)?.[1]}`);
  }
}

const SETTINGS: SessionSettings = { heartbeatMs: 60_000, maxUnsentBytes: 1000, maxHeld: 3, retryMs: 3000 };

const event = (seq: number, type = 'gate.resumed'): LiveEvent => ({
  seq,
  type,
  projectId: 'p1',
  frame: `id: ${seq}\nevent: ${type}\ndata: {}\n\n`,
});

function session(lastEventId: number | null = null, settings = SETTINGS) {
  const out = new FakeResponse();
  const counts: number[] = [];
  const s = new SseSession(out as unknown as ServerResponse, 'p1', lastEventId, settings, (stamp) =>
    counts.push(stamp),
  );
  s.open({ 'x-correlation-id': 'c1' });
  return { out, s, counts };
}

describe('SseSession', () => {
  it('answers as an event stream and tells the browser how long to wait before reconnecting', () => {
    const { out } = session();
    expect(out.status).toBe(200);
    expect(out.headers).toMatchObject({
      'content-type': 'text/event-stream; charset=utf-8',
      'x-correlation-id': 'c1',
    });
    expect(out.chunks[0]).toBe('retry: 3000\n\n');
  });

  it('holds live events during the catch-up, then writes the missed ones, ready, and the held ones — each once, in order', () => {
    const { out, s, counts } = session(10);
    s.deliver(event(14));
    s.deliver(event(13)); // also in the catch-up: written once
    s.replay([event(11), event(12), event(13)]);
    expect(out.written).toEqual(['11:gate.resumed', '12:gate.resumed', '13:gate.resumed']);
    s.ready(13, { resumed: true, reset: false });
    s.deliver(event(15, 'question.declared'));
    expect(out.written).toEqual([
      '11:gate.resumed',
      '12:gate.resumed',
      '13:gate.resumed',
      '13:ready',
      '14:gate.resumed',
      '15:question.declared',
    ]);
    // one count after ready, one after the live question event (none per replayed event)
    expect(counts).toEqual([13, 15]);
  });

  it("never goes back below the client's Last-Event-ID (a replica that is behind)", () => {
    const { out, s } = session(20);
    s.ready(18, { resumed: true, reset: false });
    s.deliver(event(19));
    s.deliver(event(20));
    s.deliver(event(21));
    expect(out.written).toEqual(['20:ready', '21:gate.resumed']);
  });

  it('drops an open count older than one already written', () => {
    const { out, s } = session();
    s.ready(5, { resumed: false, reset: false });
    s.count(3, 9);
    s.count(4, 7);
    s.count(2, 9);
    expect(
      out.chunks.filter((c) => c.startsWith('event: open_count')).map((c) => /"open":(\d+)/.exec(c)?.[1]),
    ).toEqual(['3', '2']);
  });

  it('cuts off a client that cannot keep up, and one that falls too far behind while catching up', () => {
    const slow = session();
    slow.s.ready(0, { resumed: false, reset: false });
    slow.out.writableLength = 5000;
    slow.s.deliver(event(1));
    expect(slow.s.isClosed).toBe(true);

    const behind = session(0);
    for (let seq = 1; seq <= 4; seq++) behind.s.deliver(event(seq));
    expect(behind.s.isClosed).toBe(true);
  });

  it('runs its close handlers once, whether the client left or the server closed it', () => {
    const { out, s } = session();
    const closed: string[] = [];
    s.onClose(() => closed.push('a'));
    out.emit('close');
    s.close();
    s.onClose(() => closed.push('late'));
    expect(closed).toEqual(['a', 'late']);
    expect(s.signal.aborted).toBe(true);
    s.deliver(event(1));
    expect(out.written).toEqual([]);
  });

  it('closes at once when the client left while the stream was being set up', () => {
    const out = new FakeResponse();
    out.socket = null;
    const s = new SseSession(out as unknown as ServerResponse, 'p1', null, SETTINGS, () => undefined);
    s.open({});
    expect(s.isClosed).toBe(true);
    expect(out.chunks).toEqual([]);
  });

  it('writes a heartbeat comment on its interval', () => {
    jest.useFakeTimers();
    try {
      const { out } = session(null, { ...SETTINGS, heartbeatMs: 1000 });
      jest.advanceTimersByTime(2500);
      expect(out.chunks.filter((c) => c === ': keep-alive\n\n')).toHaveLength(2);
    } finally {
      jest.useRealTimers();
    }
  });
});
