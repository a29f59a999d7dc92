import { OPENQ_EVENT_TYPES } from './events';
import { LIVE_EVENT_TYPES, LIVE_FAMILIES, OPEN_COUNT_EVENT, READY_EVENT, STREAMED_EVENT_TYPES } from './live';

/**
 * The stream's named events (live.ts): the gateway sends them and the inbox listens for exactly
 * these (EventSource hears a named event only with a listener).
 */
describe('the live stream’s events', () => {
  it('are the event table’s types of the live families, plus the stream’s own two, each once', () => {
    const streamed = OPENQ_EVENT_TYPES.filter((type) =>
      (LIVE_FAMILIES as readonly string[]).includes(type.split('.')[0]!),
    );
    expect([...STREAMED_EVENT_TYPES].sort()).toEqual([...streamed].sort());
    expect(new Set(LIVE_EVENT_TYPES).size).toBe(LIVE_EVENT_TYPES.length);
    expect([...LIVE_EVENT_TYPES].sort()).toEqual([READY_EVENT, OPEN_COUNT_EVENT, ...streamed].sort());
  });

  it('leave out the families the inbox does not show (story.*, delegation.*, project.*)', () => {
    expect(LIVE_EVENT_TYPES.filter((type) => /^(story|delegation|project)\./.test(type))).toEqual([]);
  });
});
