import { familyFilter, liveEventOf, liveSubject } from './live-events';

const bytes = (value: unknown) =>
  new TextEncoder().encode(typeof value === 'string' ? value : JSON.stringify(value));

describe('liveSubject', () => {
  it('splits <type>.<projectId> for the families the inbox follows', () => {
    expect(liveSubject('question.declared.p1')).toEqual({
      family: 'question',
      type: 'question.declared',
      projectId: 'p1',
    });
    expect(liveSubject('gate.rescue_parked.team-a')).toEqual({
      family: 'gate',
      type: 'gate.rescue_parked',
      projectId: 'team-a',
    });
    expect(liveSubject('pipeline.task_paused.p_2')).toMatchObject({ type: 'pipeline.task_paused' });
    expect(liveSubject('decision.recorded.p1')).toMatchObject({ family: 'decision' });
  });

  it.each([
    'story.corrected.p1',
    'agent.question.declare.p1',
    'question.p1',
    'question',
    'question.declared.',
    'question..p1',
  ])('ignores %p', (subject) => {
    expect(liveSubject(subject)).toBeNull();
  });

  it('filters one family of one project (nats-server 2.9 takes one filter per consumer)', () => {
    expect(familyFilter('question', 'p1')).toBe('question.*.p1');
  });
});

describe('liveEventOf', () => {
  const envelope = {
    eventId: 'e1',
    type: 'question.declared',
    projectId: 'p1',
    data: { pergunta: 'two\nlines' },
  };

  it('builds the SSE message once: id = stream sequence, event = type, data = the envelope on one line', () => {
    const event = liveEventOf('question.declared.p1', 7, bytes(envelope));
    expect(event).toEqual({
      seq: 7,
      type: 'question.declared',
      projectId: 'p1',
      frame: `id: 7\nevent: question.declared\ndata: ${JSON.stringify(envelope)}\n\n`,
    });
  });

  it('re-serialises pretty-printed JSON so that it stays one data line', () => {
    const event = liveEventOf('question.declared.p1', 7, bytes(JSON.stringify(envelope, null, 2)));
    expect(event?.frame.split('\n').filter((l) => l.startsWith('data: '))).toHaveLength(1);
  });

  it('drops what is not JSON, not an object, or names another project than its subject', () => {
    expect(liveEventOf('question.declared.p1', 1, bytes('{nope'))).toBeNull();
    expect(liveEventOf('question.declared.p1', 1, bytes('[1]'))).toBeNull();
    expect(liveEventOf('question.declared.p1', 1, bytes({ ...envelope, projectId: 'p2' }))).toBeNull();
    expect(liveEventOf('story.corrected.p1', 1, bytes(envelope))).toBeNull();
  });
});
