import { CallerQuota } from './caller-quota';

describe('CallerQuota', () => {
  const taken = (r: ReturnType<CallerQuota['take']>) => ('release' in r ? r : null);

  it('gives each user up to its share, whoever else is full', () => {
    const quota = new CallerQuota({ perUser: 2, perAddress: 10 });
    expect(taken(quota.take('ana', 'a1'))).not.toBeNull();
    expect(taken(quota.take('ana', 'a2'))).not.toBeNull();
    expect(quota.take('ana', 'a3')).toEqual({ full: 'user' });
    expect(taken(quota.take('bia', 'a1'))).not.toBeNull();
  });

  it('caps one address across users', () => {
    const quota = new CallerQuota({ perUser: 5, perAddress: 2 });
    quota.take('ana', 'a1');
    quota.take('bia', 'a1');
    expect(quota.take('caio', 'a1')).toEqual({ full: 'address' });
    expect(taken(quota.take('caio', 'a2'))).not.toBeNull();
  });

  it('frees a share on release, once however often release is called, and counts nothing when refused', () => {
    const quota = new CallerQuota({ perUser: 1, perAddress: 1 });
    const first = taken(quota.take('ana', 'a1'))!;
    expect(quota.take('ana', 'a1')).toEqual({ full: 'user' });
    expect(quota.take('bia', 'a1')).toEqual({ full: 'address' });
    first.release();
    first.release();
    expect(quota.held('ana')).toBe(0);
    expect(taken(quota.take('bia', 'a1'))).not.toBeNull();
    expect(quota.take('ana', 'a1')).toEqual({ full: 'address' });
  });
});
