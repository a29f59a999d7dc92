import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { waitFor } from '@openq/testing';
import { declare } from '../support/context-helpers';
import { useInboxStack } from '../support/inbox-harness';
import { englishLeft } from '../support/inbox-words';

/*
 * Issue #17 the clock of a question in the inbox, in real headless Chromium against the whole
 * stack with the notifier (real NATS and PostgreSQL; the notifier's clock is the test's): the
 * author sets her working hours in Settings (a bad one is refused first, in words, with the field
 * marked); she reads the project's clock but cannot change it; a maintainer sets it there (a
 * reminder at the due time is refused first); her card then says when the question is due and,
 * once the test moves the notifier's clock past it, since when it is overdue and who is late.
 */
const HOUR = 3_600_000;
/** How far the notifier's clock is ahead of the real one. */
let ahead = 0;
const harness = useInboxStack({
  services: ['questions', 'gates', 'context', 'notifier'],
  env: { NOTIFIER_POLL_MS: '50', NOTIFIER_CLOCK_TICK_MS: '50' },
  notifierNow: () => new Date(Date.now() + ahead),
});
const P = 'relogio';
const SHOTS = '/tmp/shots';

beforeAll(() => {
  mkdirSync(SHOTS, { recursive: true });
});

async function stateOf(questionId: string): Promise<string | undefined> {
  const r = await harness.stack.http('GET', `/projects/${P}/open-questions/clock`, {
    token: harness.stack.token('ana', P, 'developer'),
  });
  expect(r.status).toBe(200);
  return (r.body.items as { questionId: string; state: string }[]).find((i) => i.questionId === questionId)
    ?.state;
}

async function openSettings(page: Page): Promise<void> {
  await page.getByRole('banner').getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('heading', { level: 1, name: `Settings of ${P}` }).waitFor();
}

const focused = (page: Page) => page.evaluate(() => document.activeElement?.id);
const text = async (page: Page, selector: string) =>
  (await page.locator(selector).innerText()).replace(/\s+/g, ' ').trim();

/** Tap targets under 44 × 44 px (a checkbox or radio is tapped through its label, as in inbox-mobile). */
function smallTargets(page: Page) {
  return page.evaluate(() => {
    const targets = new Set<Element>();
    for (const el of Array.from(
      document.querySelectorAll('main button, main a[href], main input, main select, main summary'),
    )) {
      if (el.closest('.visually-hidden')) continue;
      if (el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio'))
        targets.add(el.closest('label') ?? el);
      else targets.add(el);
    }
    const out: string[] = [];
    for (const el of targets) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      if (r.width < 44 || r.height < 44)
        out.push(
          `${el.tagName.toLowerCase()}#${el.id} "${(el.textContent ?? '').trim()}" ${r.width}×${r.height}`,
        );
    }
    return { out, measured: targets.size, scrollWidth: document.documentElement.scrollWidth };
  });
}

describe('the clock of a question in the inbox', () => {
  it('sets working hours and the project’s clock in Settings; the card says due, then overdue', async () => {
    // The author: her working hours, a bad one refused first.
    const ana = await harness.person('ana', P, 'developer');
    const page = ana.page;
    await openSettings(page);
    const hours = page.locator('section.working-hours');
    await hours.getByText('You have set none: Monday to Friday, 09:00–18:00 UTC.').waitFor();
    // The browser's zone is offered first.
    const browserZone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(await hours.getByLabel('Time zone').inputValue()).toBe(browserZone);
    await hours.getByLabel('Start (HH:MM)').fill('17:00');
    await hours.getByLabel('End (HH:MM)').fill('09:00');
    await hours.getByRole('button', { name: 'Save working hours' }).click();
    const refused = hours.getByRole('alert');
    await refused.waitFor();
    expect(await refused.innerText()).toBe(
      'These hours cannot be used: write HH:MM, and end at least 15 minutes after the start.',
    );
    const end = hours.getByLabel('End (HH:MM)');
    expect(await end.getAttribute('aria-invalid')).toBe('true');
    expect(await end.getAttribute('aria-describedby')).toBe(await refused.getAttribute('id'));
    expect(await hours.getByLabel('Start (HH:MM)').getAttribute('aria-invalid')).toBeNull();
    expect(await focused(page)).toBe('wt-end');
    expect(ana.problems).toEqual([expect.stringContaining('400 (Bad Request)')]);
    ana.problems.length = 0;
    await page.locator('#settings-working-hours').screenshot({ path: `${SHOTS}/clock-hours-refused.png` });

    // Every day, all day, in São Paulo: the test's hours are business hours whenever it runs.
    await hours.getByLabel('Time zone').fill('America/Sao_Paulo');
    for (const day of ['Saturday', 'Sunday']) await hours.getByLabel(day).check();
    await hours.getByLabel('Start (HH:MM)').fill('00:00');
    await end.fill('24:00');
    await hours.getByRole('button', { name: 'Save working hours' }).click();
    await page.getByTestId('working-hours-said').getByText('Working hours saved.').waitFor();
    expect(await hours.getByRole('alert').count()).toBe(0);
    expect(await page.getByTestId('working-hours-state').innerText()).toBe(
      'Mon, Tue, Wed, Thu, Fri, Sat, Sun, 00:00–24:00 (America/Sao_Paulo).',
    );
    const mine = await harness.stack.http('GET', '/me/working-time', {
      token: harness.stack.token('ana', P, 'developer'),
    });
    expect(mine.body).toMatchObject({
      isDefault: false,
      workingTime: {
        timeZone: 'America/Sao_Paulo',
        days: [1, 2, 3, 4, 5, 6, 7],
        start: '00:00',
        end: '24:00',
      },
    });

    // She reads the project's clock (none yet) and cannot change it.
    const clockOfAna = page.locator('section.clock-policy');
    await clockOfAna
      .getByText('No clock on this project: questions have no due time, and nobody is reminded.')
      .waitFor();
    expect(await clockOfAna.getByTestId('clock-policy-readonly').innerText()).toBe(
      'Only the project’s maintainers and owners change this.',
    );
    expect(await clockOfAna.getByRole('button').count()).toBe(0);

    // A maintainer sets it; a reminder at the due time is refused first, that reminder marked.
    const mara = await harness.person('mara', P, 'maintainer');
    const mpage = mara.page;
    await openSettings(mpage);
    const clock = mpage.locator('section.clock-policy');
    await clock
      .getByText('No clock on this project: questions have no due time, and nobody is reminded.')
      .waitFor();
    await clock.getByLabel('Due after (working hours)').fill('4');
    await clock.getByRole('button', { name: '+ Add a reminder' }).click();
    await clock.getByLabel('Reminder 1, in working hours').fill('2');
    await clock.getByRole('button', { name: '+ Add a reminder' }).click();
    await clock.getByLabel('Reminder 2, in working hours').fill('4');
    await clock.getByLabel('Tell others when the author is late').check();
    await clock.getByLabel('Tell them after (working hours)').fill('6');
    await clock.getByRole('button', { name: 'Save the clock' }).click();
    const policyRefused = clock.getByRole('alert');
    await policyRefused.waitFor();
    expect(await policyRefused.innerText()).toBe(
      'A reminder falls at the due time, when the author is told anyway: move or remove it.',
    );
    expect(await clock.getByLabel('Reminder 2, in working hours').getAttribute('aria-invalid')).toBe('true');
    expect(await clock.getByLabel('Reminder 1, in working hours').getAttribute('aria-invalid')).toBeNull();
    expect(await focused(mpage)).toBe('clock-reminder-1');
    expect(mara.problems).toEqual([expect.stringContaining('400 (Bad Request)')]);
    mara.problems.length = 0;

    await clock.getByRole('button', { name: 'Remove reminder 2' }).click();
    await clock.getByRole('button', { name: 'Save the clock' }).click();
    await mpage.getByTestId('clock-policy-said').getByText('Clock saved.').waitFor();
    const words =
      'Due 4 h of working time after it is asked. The author is reminded at 2 h. After 6 h, the maintainers are told.';
    expect(await text(mpage, '[data-testid="clock-policy-sentence"]')).toBe(words);
    await clock.getByText('Set by mara').waitFor();
    const stored = await harness.stack.http('GET', `/projects/${P}/clock-policy`, {
      token: harness.stack.token('ana', P, 'developer'),
    });
    expect(stored.body).toMatchObject({
      policy: {
        dueAfter: { hours: 4 },
        reminders: [{ hours: 2 }],
        escalateAfter: { hours: 6 },
        escalateTo: 'maintainers',
      },
      updatedBy: 'mara',
    });
    await mpage.evaluate(() => window.scrollTo(0, 0));
    await mpage.screenshot({ path: `${SHOTS}/clock-settings-desktop.png`, fullPage: true });

    // The author sees it in words too, once her page looks again.
    await page.reload();
    await page.locator('section.clock-policy [data-testid="clock-policy-sentence"]').waitFor();
    expect(await text(page, 'section.clock-policy [data-testid="clock-policy-sentence"]')).toBe(words);

    // A question for her (in Portuguese: her page is read in pt-BR below): its card says when it is due.
    const q = await declare(
      harness.stack,
      P,
      'Guardar os pedidos arquivados por 90 dias ou por um ano?',
      { tarefas: ['T-7'] },
      '90 dias',
      { author: 'ana', autor: 'arquiteto' },
    );
    await waitFor(async () => (await stateOf(q)) === 'on_time', { what: 'the question on the clock' });
    await ana.inbox(harness.stack.baseUrl, P);
    const marker = page.locator(`.card[data-question-id="${q}"] .clock-marker`);
    await marker.waitFor();
    expect(await marker.getAttribute('data-clock-state')).toBe('on_time');
    expect((await marker.innerText()).replace(/\s+/g, ' ')).toMatch(/^◷ Due in (3|4) hours$/);
    expect(await marker.locator('time').getAttribute('datetime')).toMatch(/^\d{4}-\d\d-\d\dT/);

    // In the last quarter of the four hours: due soon.
    ahead = 3.5 * HOUR;
    await waitFor(async () => (await stateOf(q)) === 'due_soon', { what: 'due soon' });
    await ana.inbox(harness.stack.baseUrl, P);
    await page.locator(`.card[data-question-id="${q}"] .clock-marker[data-clock-state="due_soon"]`).waitFor();
    expect((await marker.innerText()).replace(/\s+/g, ' ')).toMatch(/^◷ Due soon: in (3|4) hours$/);
    await page.screenshot({ path: `${SHOTS}/clock-card-due-soon-desktop.png` });

    // Past the due time: overdue since then, and who is late — said in words, not colour only.
    ahead = 7 * HOUR;
    await waitFor(async () => (await stateOf(q)) === 'overdue', { what: 'overdue' });
    await ana.inbox(harness.stack.baseUrl, P);
    await page.locator(`.card[data-question-id="${q}"] .clock-marker[data-clock-state="overdue"]`).waitFor();
    expect((await marker.innerText()).replace(/\s+/g, ' ')).toMatch(/^! Overdue since .+ · ana is late$/);
    await page.screenshot({ path: `${SHOTS}/clock-card-overdue-desktop.png` });

    // The maintainer sees who is late too, on a phone, nothing cut or too small.
    await mpage.setViewportSize({ width: 390, height: 844 });
    await mara.inbox(harness.stack.baseUrl, P);
    const theirs = mpage.locator(`.card[data-question-id="${q}"] .clock-marker[data-clock-state="overdue"]`);
    await theirs.waitFor();
    expect((await theirs.innerText()).replace(/\s+/g, ' ')).toContain('ana is late');
    const box = await theirs.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    await theirs.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await mpage.screenshot({ path: `${SHOTS}/clock-card-overdue-390.png` });

    // The settings on a phone: every control a 44 × 44 px target, nothing wider than the screen.
    await openSettings(mpage);
    await mpage.locator('section.clock-policy [data-testid="clock-policy-sentence"]').waitFor();
    const small = await smallTargets(mpage);
    expect(small.measured).toBeGreaterThan(10);
    expect(small.out).toEqual([]);
    expect(small.scrollWidth).toBeLessThanOrEqual(390);
    await mpage.evaluate(() => window.scrollTo(0, 0));
    await mpage.screenshot({ path: `${SHOTS}/clock-settings-390.png`, fullPage: true });

    // In Portuguese: the marker and the clock's words, no English left.
    const anaPt = await harness.person('ana', P, 'developer', { locale: 'pt-BR' });
    const ptMarker = anaPt.page.locator(
      `.card[data-question-id="${q}"] .clock-marker[data-clock-state="overdue"]`,
    );
    await ptMarker.waitFor();
    expect((await ptMarker.innerText()).replace(/\s+/g, ' ')).toMatch(
      /^! Atrasada desde .+ · ana está atrasado\(a\)$/,
    );
    expect(await englishLeft(anaPt.page)).toEqual([]);
    await anaPt.page.getByRole('banner').getByRole('link', { name: 'Configurações' }).click();
    await anaPt.page.locator('[data-testid="clock-policy-sentence"]').waitFor();
    expect(await text(anaPt.page, '[data-testid="clock-policy-sentence"]')).toBe(
      'Vence 4 h de horário de trabalho depois de feita. O autor é lembrado em 2 h. Após 6 h, os mantenedores são avisados.',
    );
    expect(await englishLeft(anaPt.page)).toEqual([]);

    // Removed: the card says nothing more, and the author's hours go back to the default.
    await mpage.locator('section.clock-policy').getByRole('button', { name: 'Remove the clock' }).click();
    await mpage
      .getByTestId('clock-policy-said')
      .getByText(/^Clock removed/)
      .waitFor();
    await ana.inbox(harness.stack.baseUrl, P);
    await page.locator(`.card[data-question-id="${q}"]`).waitFor();
    expect(await marker.count()).toBe(0);
    await openSettings(page);
    await page.locator('section.working-hours').getByRole('button', { name: 'Reset to default' }).click();
    await page.getByTestId('working-hours-said').getByText('Back to the default working hours.').waitFor();
    expect(await page.getByTestId('working-hours-state').innerText()).toBe(
      'You have set none: Monday to Friday, 09:00–18:00 UTC.',
    );
  });
});
