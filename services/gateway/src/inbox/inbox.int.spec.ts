import type { AddressInfo } from 'node:net';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { startNatsServer, type TestNatsServer } from '@openq/testing';
import { loadGatewayConfig } from '../config';
import { startGateway } from '../gateway';
import { claimsFor, signJwt } from '../testing/sign-jwt';

/**
 * The inbox's routes on a real gateway (no domain service needed): the page or the sign-in
 * hint at `/`, its files, `GET /me`, and `/dev/login` — present outside production, absent in it.
 */
const SECRET = 'k'.repeat(40);
let nats: TestNatsServer;
let dev: NestFastifyApplication;
let prod: NestFastifyApplication;
let devBase: string;
let prodBase: string;

async function start(env: Record<string, string>): Promise<[NestFastifyApplication, string]> {
  const config = loadGatewayConfig({
    NATS_URL: nats.url,
    OPENQ_JWT_SECRET: SECRET,
    OPENQ_SERVICE_TOKEN: 's'.repeat(40),
    OPENQ_LINK_SECRET: 'l'.repeat(40),
    HOST: '127.0.0.1',
    ...env,
  });
  const app = await startGateway(config, {
    httpPort: 0,
    exitOnFailure: false,
    handleSignals: false,
    logLevel: 'silent',
  });
  return [app, `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`];
}

beforeAll(async () => {
  nats = await startNatsServer();
  [dev, devBase] = await start({ NODE_ENV: 'development' });
  [prod, prodBase] = await start({ NODE_ENV: 'production' });
});
afterAll(async () => {
  await dev?.close();
  await prod?.close();
  await nats?.stop();
});

const token = (roles: Record<string, string> = { demo: 'developer' }, sub = 'ana') =>
  signJwt(claimsFor(sub, roles), { alg: 'HS256', secret: SECRET });
const get = (base: string, path: string, headers: Record<string, string> = {}) =>
  fetch(`${base}${path}`, { headers, redirect: 'manual' });

describe('the page at /', () => {
  it('is the app for a valid token (cookie), with a CSP that allows its own files and no inline script', async () => {
    const r = await get(devBase, '/', { cookie: `openq_token=${await token()}` });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(r.headers.get('cache-control')).toBe('no-store');
    const html = await r.text();
    expect(html).toContain('<div id="app" data-dev-login="true">');
    const csp = r.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("frame-ancestors 'none'");
    // Issue #30: one bundled module of this server (never a CDN), and no script written in the page.
    const scripts = [...html.matchAll(/<script([^>]*)>/g)].map((m) => m[1]!);
    expect(scripts).toEqual([expect.stringMatching(/^ type="module" src="\/inbox\/app\.js\?v=[\w-]+"$/)]);
  });

  it('is a sign-in hint without a valid token: a link to /dev/login outside production, none in it', async () => {
    for (const headers of [{}, { cookie: 'openq_token=not-a-jwt' }] as Record<string, string>[]) {
      const r = await get(devBase, '/', headers);
      expect(r.status).toBe(200);
      const html = await r.text();
      expect(html).toContain('Sign in to openq');
      expect(html).toContain('href="/dev/login"');
      expect(r.headers.get('content-security-policy')).toContain("script-src 'none'");
    }
    const expired = await signJwt({ sub: 'ana', roles: {}, exp: 1 }, { alg: 'HS256', secret: SECRET });
    expect(await (await get(devBase, '/', { cookie: `openq_token=${expired}` })).text()).toContain(
      'no longer valid',
    );
    const inProduction = await (await get(prodBase, '/')).text();
    expect(inProduction).toContain('Sign in to openq');
    expect(inProduction).not.toContain('/dev/login');
  });
});

describe('the page files', () => {
  it('serves them compressed, cached for good under their hash, revalidated otherwise', async () => {
    const html = await (await get(devBase, '/', { cookie: `openq_token=${await token()}` })).text();
    const appUrl = /src="(\/inbox\/app\.js\?v=[^"]+)"/.exec(html)![1]!;
    const hashed = await get(devBase, appUrl, { 'accept-encoding': 'gzip' });
    expect(hashed.status).toBe(200);
    expect(hashed.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(hashed.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(hashed.headers.get('content-encoding')).toBe('gzip');
    // Preact, htm and i18next are inside: the bundle imports nothing.
    const bundle = await hashed.text();
    expect(bundle).not.toMatch(/\bimport\s*["'{*]|\bfrom\s*["']/);
    expect(bundle).not.toContain('sourceMappingURL');

    const plain = await get(devBase, '/inbox/app.js');
    expect(plain.headers.get('cache-control')).toBe('no-cache');
    const again = await get(devBase, '/inbox/app.js', { 'if-none-match': plain.headers.get('etag')! });
    expect(again.status).toBe(304);

    const missing = await get(devBase, '/inbox/nope.js');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ reason: 'rota_nao_encontrada' });
  });
});

describe('GET /me', () => {
  it('says who the token is (any signed-in user, no project needed)', async () => {
    const r = await get(devBase, '/me', {
      authorization: `Bearer ${await token({ demo: 'viewer', ops: 'owner', 'bad id': 'owner' })}`,
    });
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(await r.json()).toEqual({ sub: 'ana', roles: { demo: 'viewer', ops: 'owner' } });
  });

  it('is 401 nao_autenticado without a valid token', async () => {
    const attempts: Record<string, string>[] = [
      {},
      { authorization: 'Bearer nope' },
      { cookie: 'openq_token=nope' },
    ];
    for (const headers of attempts) {
      const r = await get(devBase, '/me', headers);
      expect(r.status).toBe(401);
      expect(await r.json()).toMatchObject({ statusCode: 401, reason: 'nao_autenticado' });
    }
  });
});

describe('development sign-in', () => {
  it('shows a form with labelled fields', async () => {
    const r = await get(devBase, '/dev/login');
    expect(r.status).toBe(200);
    const html = await r.text();
    for (const field of ['user', 'project', 'role']) expect(html).toContain(`<label for="${field}">`);
    expect(html).toContain('method="post" action="/dev/login"');
  });

  it('a one-click link sets the HttpOnly cookie with a token the gateway accepts, and goes to the inbox', async () => {
    const r = await get(devBase, '/dev/login?user=bia&project=demo&role=maintainer');
    expect(r.status).toBe(303);
    expect(r.headers.get('location')).toBe('/?project=demo');
    const cookie = r.headers.get('set-cookie')!;
    expect(cookie).toMatch(
      /^openq_token=[\w-]+\.[\w-]+\.[\w-]+; Path=\/; Max-Age=28800; HttpOnly; SameSite=Lax$/,
    );
    const me = await get(devBase, '/me', { cookie: cookie.split(';')[0]! });
    expect(await me.json()).toEqual({ sub: 'bia', roles: { demo: 'maintainer' } });
  });

  it('grants the role on several projects at once (issue #30), the inbox opening on the first', async () => {
    const r = await get(devBase, '/dev/login?user=bia&project=demo,%20web%20docs&role=developer');
    expect(r.status).toBe(303);
    expect(r.headers.get('location')).toBe('/?project=demo');
    const me = await get(devBase, '/me', { cookie: r.headers.get('set-cookie')!.split(';')[0]! });
    expect(await me.json()).toEqual({
      sub: 'bia',
      roles: { demo: 'developer', web: 'developer', docs: 'developer' },
    });
    const bad = await get(devBase, '/dev/login?user=bia&project=demo,has%2Fslash');
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('Each project must be 1 to 64 letters');
    const many = Array.from({ length: 11 }, (_, i) => `p${i}`).join(',');
    const tooMany = await get(devBase, `/dev/login?user=bia&project=${many}`);
    expect(tooMany.status).toBe(400);
    expect(await tooMany.text()).toContain('At most 10 projects at once.');
  });

  it('takes the form POSTed (urlencoded or JSON); a bad field re-shows the form with the reason in words', async () => {
    const form = await fetch(`${devBase}/dev/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'user=caio&project=demo&role=viewer',
    });
    expect(form.status).toBe(303);
    expect(form.headers.get('set-cookie')).toContain('openq_token=');
    const json = await fetch(`${devBase}/dev/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: 'caio', project: 'demo' }),
    });
    expect(json.status).toBe(303);

    const bad = await fetch(`${devBase}/dev/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'user=has+space&project=demo&role=viewer',
    });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('set-cookie')).toBeNull();
    const html = await bad.text();
    expect(html).toContain('role="alert"');
    expect(html).toContain('The user id must be 1 to 64 letters, digits, &#34;_&#34; or &#34;-&#34;.');
    expect(html).toContain('value="has space"');
    const role = await get(devBase, '/dev/login?user=ana&project=demo&role=admin');
    expect(role.status).toBe(400);
    expect(await role.text()).toContain('The role must be viewer, developer, maintainer or owner.');
  });

  it('signs out by clearing the cookie', async () => {
    const r = await get(devBase, '/dev/logout');
    expect(r.status).toBe(303);
    expect(r.headers.get('set-cookie')).toMatch(/^openq_token=; Path=\/; Max-Age=0; HttpOnly; SameSite=Lax$/);
  });

  it('does not exist in production', async () => {
    for (const path of ['/dev/login', '/dev/login?user=ana&project=demo&role=owner', '/dev/logout']) {
      const r = await get(prodBase, path);
      expect(r.status).toBe(404);
      expect(await r.json()).toMatchObject({ reason: 'rota_nao_encontrada' });
    }
    const post = await fetch(`${prodBase}/dev/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: 'ana', project: 'demo', role: 'owner' }),
    });
    expect(post.status).toBe(404);
    expect(post.headers.get('set-cookie')).toBeNull();
  });
});
