import type { Page, Route } from 'playwright-core';
import type { UserBrowser } from '@openq/testing/browser';
import { useInboxStack } from '../support/inbox-harness';
import { TestEngine } from '../support/engine';

/**
 * Issue #18 fast hands in the web inbox, in real headless Chromium against the whole stack: the
 * queue by keyboard (j/k/↓/↑, a, r, o/Enter, x, and ? for an accessible help dialog), and several
 * suggestions accepted in one go with a result per question (partial success said as such).
 */
const harness = useInboxStack();

const declare = (
  project: string,
  pergunta: string,
  sugestao: string | null,
  author = 'ana',
): Promise<string> =>
  new TestEngine(harness.stack.baseUrl).declare(project, {
    sessionId: 's-hands',
    sessionAuthorId: author,
    pergunta,
    sugestao,
    afeta: { regras: ['RN-1'] },
  });

const card = (page: Page, id: string) => page.locator(`.queue .card[data-question-id="${id}"]`);
const focusedId = (page: Page) =>
  page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset['questionId'] ?? null);

async function desktop(b: UserBrowser, project: string): Promise<Page> {
  await b.page.setViewportSize({ width: 1280, height: 800 });
  await b.inbox(harness.stack.baseUrl, project);
  await b.page.locator('.live-live').waitFor();
  return b.page;
}

describe('the queue by keyboard', () => {
  it('moves between cards, opens details and the answer box, accepts, selects; ? lists the keys in a dialog', async () => {
    const P = 'hands-keys';
    const q1 = await declare(P, 'Paginate the audit log by 50?', '50 per page');
    const q2 = await declare(P, 'Which colour for the badge?', null);
    const q3 = await declare(P, 'Send the digest on Mondays?', 'Mondays at 9');
    const q4 = await declare(P, 'Rename the export button?', 'Keep "Export"', 'bruno');
    const ana = await harness.open('ana', P, 'viewer');
    const page = await desktop(ana, P);
    await card(page, q4).waitFor();
    const order = await page
      .locator('.queue .card')
      .evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset['questionId']));
    expect(order).toEqual([q1, q2, q3, q4]);

    // j / k / ↓ / ↑ move the focus between the cards, with a visible ring, scrolled into view.
    await page.keyboard.press('j');
    expect(await focusedId(page)).toBe(q1);
    const ring = await card(page, q1).evaluate((e) => getComputedStyle(e).outlineStyle);
    expect(ring).toBe('solid');
    await page.keyboard.press('j');
    expect(await focusedId(page)).toBe(q2);
    await page.keyboard.press('ArrowDown');
    expect(await focusedId(page)).toBe(q3);
    await page.keyboard.press('k');
    await page.keyboard.press('ArrowUp');
    expect(await focusedId(page)).toBe(q1);
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    expect(await focusedId(page)).toBe(q4);
    const inView = await card(page, q4).evaluate((e) => {
      const r = e.getBoundingClientRect();
      return r.top >= 0 && r.top < window.innerHeight;
    });
    expect(inView).toBe(true);
    // A modifier key is not a shortcut.
    await page.keyboard.press('Alt+k');
    expect(await focusedId(page)).toBe(q4);

    // `a` on a question the person cannot answer says why, and changes nothing.
    await page.keyboard.press('a');
    await page
      .locator('.shortcuts [role="status"]', {
        hasText: 'Only the author of the session can answer this question.',
      })
      .waitFor({ state: 'attached' });
    expect(await card(page, q4).count()).toBe(1);

    // o / Enter open and close the card's details.
    await page.keyboard.press('k');
    await page.keyboard.press('k');
    expect(await focusedId(page)).toBe(q2);
    const details = card(page, q2).locator('details.card-details');
    await page.keyboard.press('o');
    expect(await details.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
    expect(await details.innerText()).toContain(q2);
    await page.keyboard.press('Enter');
    expect(await details.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);

    // r opens the answer box; what is typed there is text, never a shortcut.
    await page.keyboard.press('r');
    const input = card(page, q2).getByLabel('Your answer');
    expect(await input.evaluate((e) => e === document.activeElement)).toBe(true);
    await page.keyboard.type('jk?xa');
    expect(await input.inputValue()).toBe('jk?xa');
    expect(await page.locator('dialog.help[open]').count()).toBe(0);
    await input.fill('');

    // x ticks the focused card for "Accept suggestions".
    await card(page, q3).focus();
    await page.keyboard.press('x');
    expect(await card(page, q3).getByRole('checkbox').isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Accept 1 suggestion' }).waitFor();
    await page.keyboard.press('x');
    expect(await card(page, q3).getByRole('checkbox').isChecked()).toBe(false);
    expect(await page.locator('.bulk-bar').count()).toBe(0);

    // ? opens the help: a modal dialog listing every key, focus kept inside, Esc closes it.
    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.waitFor();
    const rows = await help.locator('tbody tr').allInnerTexts();
    expect(rows.map((r) => r.replace(/\s+/g, ' ').trim())).toEqual([
      'j / ↓ Next question',
      'k / ↑ Previous question',
      'a Accept the suggestion',
      'r Write an answer',
      'o / Enter Open or close the details',
      'x Select for “Accept suggestions”',
      '? Show these shortcuts',
    ]);
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press('Tab');
      expect(await help.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    }
    // Keys inside the dialog do not reach the queue.
    await page.keyboard.press('j');
    expect(await help.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    await ana.screenshot('inbox-hands-help-1280', { fullPage: false });
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'hidden' });
    expect(await focusedId(page)).toBe(q3);

    // a accepts the focused card's suggestion, as the button does; the focus moves on.
    await page.keyboard.press('a');
    await card(page, q3).waitFor({ state: 'detached' });
    const answered = await harness.stack.http('GET', `/projects/${P}/open-questions?status=answered`, {
      token: harness.stack.token('ana', P, 'viewer'),
    });
    expect(answered.body.items).toMatchObject([
      { questionId: q3, resposta: 'Mondays at 9', aceitouSugestao: true },
    ]);
    expect(await focusedId(page)).toBe(q4);
  });
});

describe('accepting several suggestions at once', () => {
  it('ticks cards, accepts them in one go and shows a result per question, partial success as such', async () => {
    const P = 'hands-bulk';
    const a = await declare(P, 'Archive tickets after 90 days?', '90 days');
    const b = await declare(P, 'Keep the CSV export?', 'Drop it');
    const c = await declare(P, 'Send the digest on Mondays?', 'Mondays at 9');
    const d = await declare(P, 'Log failed logins?', 'Yes, for 30 days');
    const bare = await declare(P, 'Which colour for the badge?', null);
    const other = await declare(P, 'Rename the export button?', 'Keep "Export"', 'bruno');
    const ana = await harness.open('ana', P, 'viewer');
    const page = await desktop(ana, P);
    await card(page, other).waitFor();

    // Only cards ana may answer with a suggestion can be ticked.
    expect(await card(page, bare).getByRole('checkbox').count()).toBe(0);
    expect(await card(page, other).getByRole('checkbox').count()).toBe(0);
    for (const id of [a, b, c, d]) await card(page, id).getByRole('checkbox').check();
    const accept = page.getByRole('button', { name: 'Accept 4 suggestions' });
    await accept.waitFor();
    expect(await page.locator('.bulk-bar').innerText()).toContain('4 selected');
    await ana.screenshot('inbox-hands-selected-1280', { fullPage: false });

    // Meanwhile, elsewhere: b is answered and c withdrawn. The page's list reloads are held, so
    // its cards are still ticked when ana accepts (as on a slow connection).
    const held: Route[] = [];
    let holding = true;
    await page.route(/\/open-questions\?status=open/, async (route) => {
      if (holding) held.push(route);
      else await route.continue();
    });
    const token = harness.stack.token('ana', P, 'viewer');
    expect(
      await harness.stack.http('POST', `/projects/${P}/open-questions/${b}/answer`, {
        token,
        body: { resposta: 'Keep it one more release' },
      }),
    ).toMatchObject({ status: 200 });
    expect(
      await harness.stack.http('POST', `/projects/${P}/open-questions/${c}/withdraw`, {
        token,
        body: { motivo: 'The digest was cancelled' },
      }),
    ).toMatchObject({ status: 200 });
    await accept.click();

    const results = page.locator('.bulk-results');
    await results.getByRole('heading', { name: '2 of 4 suggestions accepted' }).waitFor();
    const line = (id: string) => results.locator(`.result[data-question-id="${id}"]`);
    expect((await line(a).innerText()).replace(/\s+/g, ' ')).toContain(
      'Answered: Archive tickets after 90 days?',
    );
    expect((await line(d).innerText()).replace(/\s+/g, ' ')).toContain('Answered: Log failed logins?');
    expect((await line(b).innerText()).replace(/\s+/g, ' ')).toContain(
      'Already answered: Keep the CSV export?',
    );
    expect((await line(c).innerText()).replace(/\s+/g, ' ')).toContain(
      'Not answered: Send the digest on Mondays? This question was withdrawn: it no longer needs an answer.',
    );
    expect(await page.locator('.bulk-bar').count()).toBe(0);
    // Issue #30: the headline follows a switch of language, like every line under it.
    await page.getByLabel('Language').selectOption('pt-BR');
    await results.getByRole('heading', { name: '2 de 4 sugestões aceitas' }).waitFor();
    expect(await results.getByRole('heading').innerText()).toBe('2 de 4 sugestões aceitas');
    await page.getByLabel('Idioma').selectOption('en');
    await results.getByRole('heading', { name: '2 of 4 suggestions accepted' }).waitFor();
    holding = false;
    for (const route of held.splice(0)) await route.continue();
    // The queue then keeps only what still waits: the question without a suggestion and bruno's.
    for (const id of [a, b, c, d]) await card(page, id).waitFor({ state: 'detached' });
    await card(page, bare).waitFor();
    // Issue #30: right after the bulk accept, the readiness notice says the count the queue's heading says.
    await page.locator('#open-questions .count', { hasText: /^\D*2$/ }).waitFor();
    expect((await page.locator('.readiness .notice').innerText()).replace(/\s+/g, ' ')).toBe(
      '! 2 questions are still open — answer',
    );
    await ana.screenshot('inbox-hands-results-1280', { fullPage: false });

    const answered = await harness.stack.http('GET', `/projects/${P}/open-questions?status=answered`, {
      token,
    });
    const byId = new Map(
      (answered.body.items as { questionId: string; resposta: string }[]).map((q) => [
        q.questionId,
        q.resposta,
      ]),
    );
    expect(Object.fromEntries(byId)).toEqual({
      [a]: '90 days',
      [b]: 'Keep it one more release',
      [d]: 'Yes, for 30 days',
    });
  });
});
