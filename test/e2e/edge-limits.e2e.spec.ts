import { Stack } from '../support/stack';

/*
 * Issue #27 (SPEC §12.2) the lockouts an outside attacker found, over the real stack (questions,
 * gateway; real NATS and PostgreSQL) with the rate limits on and the gateway behind a trusted
 * proxy (this machine, as an ingress would be): junk tokens from one client never shut out a
 * valid caller, one user's flood never starves another, and the clients behind the proxy are
 * told apart by X-Forwarded-For.
 */

const P = 'edge';
let stack: Stack;

beforeAll(async () => {
  stack = await Stack.start({
    services: ['questions'],
    env: {
      GATEWAY_TRUSTED_PROXIES: '127.0.0.1, ::1',
      GATEWAY_RATE_LIMIT_AUTH_FAILURES: '5',
      GATEWAY_RATE_LIMIT_PER_ADDRESS: '20',
      GATEWAY_RATE_LIMIT_PER_USER: '10',
      GATEWAY_RATE_LIMIT_PER_SERVICE: '100',
    },
  });
});
afterAll(async () => {
  await stack?.stop();
});

/** A request as the ingress forwards it: the client's address in X-Forwarded-For. */
function from(client: string, method: string, path: string, options: Parameters<Stack['http']>[2] = {}) {
  return stack.http(method, path, {
    ...options,
    headers: { ...options.headers, 'x-forwarded-for': client },
  });
}

const count = (client: string, token: string) =>
  from(client, 'GET', `/projects/${P}/open-questions/count`, { token });

it('serves a valid user and the engine from an address that sent junk tokens past every budget', async () => {
  const attacker = '203.0.113.10';
  const junk = [];
  // One after another: a failure is counted once its 401 is sent.
  for (let i = 0; i < 40; i++) junk.push(await count(attacker, 'forged.token.here'));
  expect(junk.filter((r) => r.status === 401)).toHaveLength(5);
  expect(junk.filter((r) => r.status === 429)).toHaveLength(35);
  expect(junk.every((r) => r.status === 401 || r.body.reason === 'muitas_requisicoes')).toBe(true);

  // Issue #27: from the very same address, a person with a valid token…
  const ana = await count(attacker, stack.token('ana', P, 'viewer'));
  expect(ana).toMatchObject({ status: 200, body: { open: 0 } });
  // … and the engine with the service token are served.
  const declared = await from(attacker, 'POST', `/internal/projects/${P}/open-questions`, {
    service: true,
    body: {
      sessionId: 's-1',
      sessionAuthorId: 'ana',
      autor: 'po',
      pergunta: 'Ship the beta to everyone?',
      sugestao: 'Only to staff',
      afeta: { regras: [], historias: [], tarefas: [] },
      toolCallId: 'toolu_edge_1',
    },
  });
  expect(declared.status).toBe(201);
  // Someone else behind the same ingress, not signed in, is not refused for the attacker's junk.
  const neighbour = await from('203.0.113.11', 'GET', `/l/not-a-link`);
  expect(neighbour).toMatchObject({ status: 403, body: { reason: 'link_invalido' } });
});

it('lets two users behind one proxy each use their own budget', async () => {
  const office = '198.51.100.20';
  const caio = stack.token('caio', P, 'viewer');
  const dora = stack.token('dora', P, 'viewer');
  // Caio floods from the office: his own budget refuses him, and only him.
  const flood = await Promise.all(Array.from({ length: 40 }, () => count(office, caio)));
  expect(flood.filter((r) => r.status === 200)).toHaveLength(10);
  expect(flood.filter((r) => r.status === 429).every((r) => r.body.limit === 'user')).toBe(true);
  // Dora, at the next desk (same address) and from home (another one), reads all she asks.
  const reads = await Promise.all([
    ...Array.from({ length: 5 }, () => count(office, dora)),
    ...Array.from({ length: 5 }, () => count('192.0.2.30', dora)),
  ]);
  expect(reads.map((r) => r.status)).toEqual(Array(10).fill(200));
});
