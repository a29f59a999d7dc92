import { main, mintDevToken, parseTtl } from './token';

const decode = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>;

describe('tools/token', () => {
  it('mints sub, roles, iat and exp (default 8h)', () => {
    const claims = decode(mintDevToken({ user: 'u1', project: 'p1', role: 'developer', nowMs: 1_000_000 }));
    expect(claims).toEqual({ sub: 'u1', roles: { p1: 'developer' }, iat: 1000, exp: 1000 + 8 * 3600 });
  });

  it.each([
    ['3600', 3600],
    ['30m', 1800],
    ['2h', 7200],
    ['7d', 604_800],
  ])('reads ttl %s', (ttl, seconds) => {
    expect(parseTtl(ttl)).toBe(seconds);
  });

  it('refuses bad arguments', () => {
    expect(() => mintDevToken({ user: 'u 1', project: 'p1', role: 'viewer' })).toThrow(/--user/);
    expect(() => mintDevToken({ user: 'u1', project: 'p1', role: 'admin' as 'viewer' })).toThrow(/--role/);
    expect(() => parseTtl('soon')).toThrow(/--ttl/);
  });

  it('prints a token from the command line, and refuses the dev secret in production', () => {
    const out = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const err = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(main(['--user', 'u1', '--project', 'p1', '--role', 'viewer'], {})).toBe(0);
      expect(String(out.mock.calls[0]?.[0])).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+\n$/);
      expect(main(['--user', 'u1', '--project', 'p1'], { NODE_ENV: 'production' })).toBe(2);
      expect(String(err.mock.calls[0]?.[0])).toMatch(/NODE_ENV=production/);
    } finally {
      out.mockRestore();
      err.mockRestore();
    }
  });
});
