import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { waitFor } from '@openq/testing';
import { declare } from '../support/context-helpers';
import { useInboxStack } from '../support/inbox-harness';
import { englishLeft } from '../support/inbox-words';
import { RECEIVERS_ALLOWED, WebhookReceiver } from '@openq/testing/webhook-receiver';

/*
 * Issue #17 "What the person sees", in real headless Chromium against the whole stack with the
 * notifier (real NATS, PostgreSQL and a real HTTP receiver): from the header's Settings page the
 * person sets a signed webhook; a question declared for them fails for good at the receiver (400)
 * and shows as a failed delivery with its reason; the receiver fixed, "Redeliver" sends it again
 * (same X-Openq-Delivery-Id) and the row says sent. A bad e-mail address is refused in words with
 * the field marked; a channel is saved and removed; the page fits a 390 px phone.
 */
const harness = useInboxStack({
  services: ['questions', 'gates', 'context', 'notifier'],
  env: {
    ...RECEIVERS_ALLOWED,
    NOTIFIER_POLL_MS: '50',
    NOTIFIER_RETRY_BASE_MS: '50',
    NOTIFIER_RETRY_MAX_MS: '200',
    NOTIFIER_MAX_ATTEMPTS: '4',
    NOTIFIER_SEND_TIMEOUT_MS: '3000',
    OPENQ_PUBLIC_URL: 'https://openq.example.com',
  },
});
const P = 'avisos';
const SECRET = 'whsec-inbox-0123456789abcdef';
const SHOTS = '/tmp/shots';
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await WebhookReceiver.start();
  mkdirSync(SHOTS, { recursive: true });
});
afterAll(async () => {
  await receiver?.stop();
});

function channels(user: string) {
  return harness.stack.http('GET', `/projects/${P}/notification-channels`, {
    token: harness.stack.token(user, P, 'viewer'),
  });
}

/** The settings page, opened from the header with the keyboard (focus lands on its title). */
async function openSettings(page: Page): Promise<void> {
  await page.getByRole('banner').getByRole('link', { name: 'Settings' }).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { level: 1, name: `Settings of ${P}` }).waitFor();
  await waitFor(async () => (await page.evaluate(() => document.activeElement?.id)) === 'settings-title', {
    what: 'the focus on the settings page’s title',
  });
  expect(new URL(page.url()).searchParams.get('view')).toBe('settings');
}

/** Tap targets under 44 × 44 px inside `main` (the same measure as inbox-mobile.e2e.spec.ts). */
function smallTargets(page: Page) {
  return page.evaluate(() => {
    const out: string[] = [];
    let measured = 0;
    const selector = 'button, a[href], input, select, textarea, summary, [role="button"]';
    for (const found of Array.from(document.querySelectorAll(selector))) {
      if (found.closest('.visually-hidden')) continue;
      // A checkbox or a radio is tapped through its label: the label is the target (inbox-mobile).
      const box = found instanceof HTMLInputElement && (found.type === 'checkbox' || found.type === 'radio');
      const el = box ? (found.closest('label') ?? found) : found;
      const style = getComputedStyle(el);
      if (style.display === 'none' || style.visibility === 'hidden') continue;
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      measured++;
      if (r.width < 44 || r.height < 44)
        out.push(
          `${el.tagName.toLowerCase()}#${el.id} "${(el.textContent ?? '').trim()}" ${r.width}×${r.height}`,
        );
    }
    return { out, measured, scrollWidth: document.documentElement.scrollWidth };
  });
}

describe('notification settings in the inbox', () => {
  it('shows a failed webhook delivery with its reason, and redelivers it once the receiver is fixed', async () => {
    let fixed = false;
    receiver.answer('/ana', () => (fixed ? 200 : 400));
    const ana = await harness.person('ana', P, 'viewer');
    const page = ana.page;
    await openSettings(page);

    const webhook = page.locator('form.channel-webhook');
    await webhook.getByText('No webhook set.').waitFor();
    await webhook.getByLabel('Webhook URL').fill(receiver.url('/ana'));
    await webhook.getByLabel('Signing secret').fill(SECRET);
    await webhook.getByRole('button', { name: 'Save webhook' }).click();
    await page.getByTestId('channel-webhook-said').getByText('Webhook saved.').waitFor();
    // Shown in part, the secret never: both fields are empty again, to be typed to replace them.
    const state = await webhook.getByTestId('channel-webhook-state').innerText();
    expect(state).toBe(`Posts to ${receiver.baseUrl}/…/ana, signed with your secret (shown in part only).`);
    expect(await webhook.getByLabel('New webhook URL').inputValue()).toBe('');
    expect(await webhook.getByLabel('Signing secret').inputValue()).toBe('');
    expect(await page.content()).not.toContain(SECRET);
    expect((await channels('ana')).body.webhook).toMatchObject({ secretSet: true, enabled: true });

    // Nothing sent yet: said in words.
    const deliveries = page.locator('section.deliveries');
    await deliveries.getByText('Nothing was sent to you on this project yet.').waitFor();

    await declare(
      harness.stack,
      P,
      'Archive or delete the old codes?',
      { tarefas: ['T-7'] },
      'Keep it simple',
      { author: 'ana', autor: 'arquiteto' },
    );
    const dead = await waitFor(
      async () => {
        const r = await harness.stack.http('GET', `/projects/${P}/notifications/deliveries?status=dead`, {
          token: harness.stack.token('ana', P, 'viewer'),
        });
        return r.body.total === 1 ? (r.body.items[0] as { deliveryId: string }) : false;
      },
      { what: 'ana’s failed delivery' },
    );
    expect(receiver.at('/ana').map((r) => r.status)).toEqual([400]);

    // The person looks at the failed ones: the row says why, and how many attempts.
    await deliveries.getByRole('button', { name: 'Failed' }).click();
    const row = deliveries.locator(`.delivery[data-delivery-id="${dead.deliveryId}"]`);
    await row.waitFor();
    expect(await deliveries.getByRole('button', { name: 'Failed' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    expect(await row.getAttribute('data-status')).toBe('dead');
    expect((await row.locator('.delivery-title').innerText()).replace(/\s+/g, ' ')).toBe(
      'Failed New question for you by webhook',
    );
    expect((await row.locator('.delivery-reason').innerText()).replace(/\s+/g, ' ')).toBe(
      'Why it failed: the address refused the message (HTTP 4xx)',
    );
    expect(await row.locator('.attempts').innerText()).toBe('1 attempt');
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${SHOTS}/settings-desktop.png`, fullPage: true });

    // Fixed, redelivered from the row: pending at once, then sent, with the same delivery id.
    fixed = true;
    await row.getByRole('button', { name: 'Redeliver' }).click();
    await row.locator('.tag', { hasText: /^(Pending|Sent)$/ }).waitFor();
    await row.locator('.tag', { hasText: /^Sent$/ }).waitFor();
    expect(await row.getAttribute('data-status')).toBe('sent');
    expect(await row.locator('.delivery-reason').count()).toBe(0);
    expect(receiver.at('/ana').map((r) => r.status)).toEqual([400, 200]);
    expect(new Set(receiver.at('/ana').map((r) => r.headers['x-openq-delivery-id']))).toEqual(
      new Set([dead.deliveryId]),
    );
    // The "Sent" filter lists it too.
    await deliveries.getByRole('button', { name: 'Sent' }).click();
    await deliveries
      .locator(`.delivery[data-delivery-id="${dead.deliveryId}"][data-status="sent"]`)
      .waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${SHOTS}/settings-desktop-sent.png`, fullPage: true });

    // Back to the inbox from the page: the queue again, the URL without the view.
    await page.getByRole('link', { name: '← Back to the inbox' }).click();
    await page.locator('#open-questions').waitFor();
    expect(new URL(page.url()).searchParams.get('view')).toBeNull();
    await waitFor(async () => (await page.evaluate(() => document.activeElement?.id)) === 'open-questions', {
      what: 'the focus back on the open questions',
    });
    // The browser's Back returns to the settings page.
    await page.goBack();
    await page.getByRole('heading', { level: 1, name: `Settings of ${P}` }).waitFor();
  });

  it('refuses a bad e-mail address in words with the field marked, saves a good one, and removes it (390 px)', async () => {
    const bruno = await harness.person('bruno', P, 'viewer', { viewport: { width: 390, height: 844 } });
    const page = bruno.page;
    await openSettings(page);

    const email = page.locator('form.channel-email');
    await email.getByText('No e-mail address set.').waitFor();
    const address = email.getByLabel('E-mail address');
    await address.fill('not-an-address');
    await email.getByRole('button', { name: 'Save e-mail' }).click();
    const alert = email.getByRole('alert');
    await alert.waitFor();
    expect(await alert.innerText()).toBe('Write a valid e-mail address, like ana@example.com.');
    expect(await address.getAttribute('aria-invalid')).toBe('true');
    expect(await address.getAttribute('aria-describedby')).toBe(await alert.getAttribute('id'));
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('channel-email-address');
    expect((await channels('bruno')).body.email).toBeNull();
    // The refused PUT's 400 is on purpose; nothing else may have gone wrong.
    expect(bruno.problems).toEqual([expect.stringContaining('400 (Bad Request)')]);
    bruno.problems.length = 0;

    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${SHOTS}/settings-390-refused.png`, fullPage: true });

    await address.fill('bruno@example.com');
    await email.getByLabel('How often').selectOption({ label: 'A digest every day' });
    await email.getByRole('button', { name: 'Save e-mail' }).click();
    await email.getByText('To bruno@example.com — A digest every day.').waitFor();
    expect(await email.getByRole('alert').count()).toBe(0);
    expect(await address.getAttribute('aria-invalid')).toBeNull();
    expect((await channels('bruno')).body.email).toMatchObject({
      address: 'bruno@example.com',
      mode: 'daily',
    });

    // Every control of the page is a 44 × 44 px tap target, and nothing is wider than the phone.
    const small = await smallTargets(page);
    expect(small.measured).toBeGreaterThan(10);
    expect(small.out).toEqual([]);
    expect(small.scrollWidth).toBeLessThanOrEqual(390);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${SHOTS}/settings-390.png`, fullPage: true });

    await email.getByRole('button', { name: 'Remove e-mail' }).click();
    await email.getByText('No e-mail address set.').waitFor();
    await page.getByTestId('channel-email-said').getByText('E-mail removed.').waitFor();
    expect(await email.getByRole('button', { name: 'Remove e-mail' }).count()).toBe(0);
    expect((await channels('bruno')).body.email).toBeNull();
    // No delivery for bruno, under any filter: said in words.
    const deliveries = page.locator('section.deliveries');
    await deliveries.getByRole('button', { name: 'Failed' }).click();
    await deliveries.getByText('No failed delivery: every one went through or is still trying.').waitFor();
  });

  it('links the person’s Slack member id (issue #34): a bad one is refused in words, a good one is linked', async () => {
    const erin = await harness.person('erin', P, 'viewer');
    const page = erin.page;
    await openSettings(page);
    const slack = page.locator('section#settings-slack');
    await slack.getByText('No Slack member id linked: Slack’s buttons cannot answer as you yet.').waitFor();
    const field = slack.getByLabel('Your Slack member id');
    await field.fill('erin');
    await slack.getByRole('button', { name: 'Link' }).click();
    expect(await slack.getByRole('alert').innerText()).toBe(
      'Write a Slack member id: it starts with U or W, then letters and digits (like U012AB3CD).',
    );
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    await field.fill('u0erin42');
    await slack.getByRole('button', { name: 'Link' }).click();
    await slack.getByText('Linked: U0ERIN42').waitFor();
    const me = await harness.stack.http('GET', '/me/slack', {
      token: harness.stack.token('erin', P, 'viewer'),
    });
    expect(me.body).toMatchObject({ userId: 'erin', slackUserId: 'U0ERIN42' });
    expect(erin.problems).toEqual([]);
  });

  it('says the settings page in Portuguese to a pt-BR browser, on a phone, with no English word left', async () => {
    const token = harness.stack.token('dora', P, 'viewer');
    const put = await harness.stack.http('PUT', `/projects/${P}/notification-channels`, {
      token,
      body: { webhook: { url: receiver.url('/dora'), secret: SECRET } },
    });
    expect(put.status).toBe(200);
    await declare(
      harness.stack,
      P,
      'Split the invoice export by month?',
      { tarefas: ['T-7'] },
      'Keep it simple',
      { author: 'dora', autor: 'arquiteto' },
    );
    await waitFor(
      async () => {
        const r = await harness.stack.http('GET', `/projects/${P}/notifications/deliveries?status=sent`, {
          token,
        });
        return r.body.total === 1;
      },
      { what: 'dora’s delivery sent' },
    );

    const dora = await harness.person('dora', P, 'viewer', {
      locale: 'pt-BR',
      viewport: { width: 390, height: 844 },
    });
    const page = dora.page;
    await page.getByRole('banner').getByRole('link', { name: 'Configurações' }).click();
    await page.getByRole('heading', { level: 1, name: `Configurações de ${P}` }).waitFor();
    const row = page.locator('section.deliveries .delivery[data-status="sent"]');
    await row.waitFor();
    expect((await row.locator('.delivery-title').innerText()).replace(/\s+/g, ' ')).toBe(
      'Enviada Nova pergunta para você por webhook',
    );
    expect(await row.locator('.attempts').innerText()).toBe('1 tentativa');
    expect(await page.getByTestId('channel-webhook-state').innerText()).toBe(
      `Publica em ${receiver.baseUrl}/…dora, assinado com o seu segredo (mostrado só em parte).`,
    );
    // The page's own check speaks Portuguese too (nothing is sent).
    const email = page.locator('form.channel-email');
    await email.getByRole('button', { name: 'Salvar e-mail' }).click();
    expect(await email.getByRole('alert').innerText()).toBe('Escreva o endereço de e-mail primeiro.');
    expect(await email.getByLabel('Endereço de e-mail').getAttribute('aria-invalid')).toBe('true');

    expect(await englishLeft(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // Portuguese is longer: no control's words are cut.
    const cut = await page.evaluate(() =>
      Array.from(document.querySelectorAll<HTMLElement>('main button, main select, main .tag'))
        .filter((el) => el.offsetParent !== null && el.scrollWidth > el.clientWidth + 1)
        .map((el) => el.textContent?.trim()),
    );
    expect(cut).toEqual([]);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${SHOTS}/settings-390-pt-BR.png`, fullPage: true });
    // The filter's empty state, in words.
    await page.locator('section.deliveries').getByRole('button', { name: 'Falharam' }).click();
    await page.getByText('Nenhuma entrega falhou: todas chegaram ou ainda estão tentando.').waitFor();
    expect(await englishLeft(page)).toEqual([]);
  });
});
