import { amendInstant } from './amend-decision.handler';

describe('amendInstant', () => {
  const answeredAt = '2026-12-01T10:00:00.000Z';

  it('is now when now is after the answer', () => {
    const now = new Date('2026-12-01T10:05:00.000Z');
    expect(amendInstant(now, answeredAt)).toBe(now);
  });

  it('is just after the answer when this clock is behind the one that recorded it', () => {
    expect(amendInstant(new Date('2026-12-01T09:59:00.000Z'), answeredAt).toISOString()).toBe(
      '2026-12-01T10:00:00.001Z',
    );
    expect(amendInstant(new Date(answeredAt), answeredAt).toISOString()).toBe('2026-12-01T10:00:00.001Z');
  });

  it('is now when there is no answer (the decider refuses that amendment anyway)', () => {
    const now = new Date('2026-12-01T09:00:00.000Z');
    expect(amendInstant(now, null)).toBe(now);
  });
});
