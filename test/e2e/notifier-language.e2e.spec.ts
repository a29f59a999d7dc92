import { REFUSALS } from '@openq/contracts';
import { englishLeft, englishOnlyWords, waitFor } from '@openq/testing';
import { SmtpSink } from '@openq/testing/smtp-sink';
import { ENGLISH_ONLY } from '../../services/notifier/src/notifier/adapters/channels/templates/language-samples';
import { ONE_TAP_WORDS } from '../../services/gateway/src/one-tap/one-tap-pages';
import { ask, EXEC_AUTHOR, gatesOf, publishVerdict, startGate } from '../support/gates';
import { Stack } from '../support/stack';

/*
 * Issue #30 over the real stack (questions, gates, notifier, gateway; real NATS, PostgreSQL and
 * SMTP): a project whose maintainer set pt-BR, and a session author who set no language of their
 * own → the e-mail of their parked gate is in Portuguese, and so is the one-tap confirm page its
 * "accept" link opens (even for a browser that asks for English). The author's own setting then
 * wins over the project's.
 */

const P = 'idioma';
const PUBLIC = 'https://openq.example.com';
const ADDRESS = 'ana@example.com';
let stack: Stack;
let smtp: SmtpSink;

beforeAll(async () => {
  smtp = await SmtpSink.start();
  stack = await Stack.start({
    services: ['questions', 'gates', 'notifier'],
    env: { ...smtp.env(), NOTIFIER_POLL_MS: '50', OPENQ_PUBLIC_URL: PUBLIC },
  });
});
afterAll(async () => {
  await stack?.stop();
  await smtp?.stop();
});

const author = () => stack.token(EXEC_AUTHOR, P, 'viewer');

const ONE_TAP_ENGLISH = englishOnlyWords(
  [ONE_TAP_WORDS.en, Object.values(REFUSALS).map((r) => r.en)],
  [ONE_TAP_WORDS['pt-BR'], Object.values(REFUSALS).map((r) => r['pt-BR'])],
  ['openq', 'QA', 'SecOps', 'link', 'gate', 'UTC'],
);

it('a pt-BR project: its author gets a pt-BR e-mail and a pt-BR one-tap page; their own language then wins', async () => {
  const setProject = await stack.http('PUT', `/projects/${P}/language`, {
    token: stack.token('mia', P, 'maintainer'),
    body: { language: 'pt-BR' },
  });
  expect(setProject).toMatchObject({ status: 200, body: { projectId: P, language: 'pt-BR' } });
  // A viewer may read it, not set it.
  const refused = await stack.http('PUT', `/projects/${P}/language`, {
    token: author(),
    body: { language: 'en' },
  });
  expect(refused).toMatchObject({ status: 403, body: { reason: 'papel_insuficiente' } });
  const unknown = await stack.http('PUT', '/me/language', { token: author(), body: { language: 'fr' } });
  expect(unknown).toMatchObject({ status: 400, body: { reason: 'corpo_invalido' } });
  expect(await stack.http('GET', '/me/language', { token: author() })).toMatchObject({
    status: 200,
    body: { language: null },
  });
  expect(await stack.http('GET', `/projects/${P}/language`, { token: author() })).toMatchObject({
    status: 200,
    body: { language: 'pt-BR', effective: 'pt-BR' },
  });

  const put = await stack.http('PUT', `/projects/${P}/notification-channels`, {
    token: author(),
    body: { email: { address: ADDRESS, mode: 'immediate' } },
  });
  expect(put.status).toBe(200);

  await startGate(stack, P, 'T-401');
  await publishVerdict(stack, P, 'T-401', 'round-T-401', [
    ask('functional', 'Arredondar preços para cima ou para o par?', 'Para cima'),
  ]);
  await waitFor(
    async () => {
      const r = await gatesOf(stack, P, 'T-401');
      const qa = (r.body as { gate: string; state: string }[]).find((g) => g.gate === 'qa');
      return qa?.state === 'parked' ? qa : null;
    },
    { what: 'the QA gate to park' },
  );

  const parked = await waitFor(
    () => smtp.to(ADDRESS).find((m) => (m.subject ?? '').includes('Gate de QA em T-401')),
    { what: 'the pt-BR e-mail of the parked gate' },
  );
  expect(parked.subject).toBe('[openq] Gate de QA em T-401 espera a sua decisão');
  const mail = `${parked.subject}\n${parked.text ?? ''}\n${String(parked.html ?? '')}`;
  expect(englishLeft(mail, ENGLISH_ONLY)).toEqual([]);
  expect(parked.text).toContain('Aceitar a sugestão: https://openq.example.com/l/');
  expect(String(parked.html)).toContain('<html lang="pt-BR">');

  const accept = /Aceitar a sugestão: https:\/\/openq\.example\.com\/l\/([A-Za-z0-9_.-]+)/.exec(
    parked.text ?? '',
  )![1]!;
  const page = await fetch(`${stack.baseUrl}/l/${accept}`, {
    headers: { accept: 'text/html', 'accept-language': 'en-US,en;q=0.9' },
  });
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(html).toContain('<html lang="pt-BR">');
  expect(html).toContain('Aceitar a sugestão?');
  expect(html).toContain('Gate de QA em T-401');
  expect(englishLeft(html, ONE_TAP_ENGLISH)).toEqual([]);

  // The author's own language wins over the project's.
  const mine = await stack.http('PUT', '/me/language', { token: author(), body: { language: 'en' } });
  expect(mine).toMatchObject({ status: 200, body: { language: 'en' } });
  expect(await stack.http('GET', `/projects/${P}/language`, { token: author() })).toMatchObject({
    body: { language: 'pt-BR', effective: 'en' },
  });
});
