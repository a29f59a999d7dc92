import { parseLastEventId, sseComment, sseMessage, sseRetry } from './sse';

describe('SSE framing', () => {
  it('writes id, event and data, ended by a blank line', () => {
    expect(sseMessage({ id: 42, event: 'question.declared', data: '{"a":1}' })).toBe(
      'id: 42\nevent: question.declared\ndata: {"a":1}\n\n',
    );
  });

  it('leaves the id out when there is none (the client keeps its last one)', () => {
    expect(sseMessage({ event: 'open_count', data: '{"open":3}' })).toBe(
      'event: open_count\ndata: {"open":3}\n\n',
    );
  });

  it('splits data on every kind of line break, so a line break cannot end the message early', () => {
    expect(sseMessage({ event: 'x', data: 'a\nb\r\nc\rd' })).toBe(
      'event: x\ndata: a\ndata: b\ndata: c\ndata: d\n\n',
    );
  });

  it('refuses an event name that is empty or holds a line break', () => {
    expect(() => sseMessage({ event: 'a\nid: 1', data: '' })).toThrow(/one non-empty line/);
    expect(() => sseMessage({ event: '', data: '' })).toThrow(/one non-empty line/);
  });

  it('writes comments on one line and the retry field', () => {
    expect(sseComment('keep-alive')).toBe(': keep-alive\n\n');
    expect(sseComment('a\nb')).toBe(': a b\n\n');
    expect(sseRetry(3000)).toBe('retry: 3000\n\n');
  });
});

describe('Last-Event-ID', () => {
  it.each([
    ['17', 17],
    [' 17 ', 17],
    ['0', 0],
    [['5', '6'], 5],
  ])('reads %p as %p', (header, seq) => {
    expect(parseLastEventId(header)).toBe(seq);
  });

  it.each([undefined, '', 'abc', '-1', '1.5', '1e3', '9'.repeat(16)])('treats %p as absent', (header) => {
    expect(parseLastEventId(header)).toBeNull();
  });
});
