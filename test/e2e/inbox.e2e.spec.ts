import { waitFor } from '@openq/testing';
import { UserBrowser } from '@openq/testing/browser';
import { useInboxStack, type InboxRole } from '../support/inbox-harness';
import type { Stack } from '../support/stack';
import { TestEngine, type Declaration } from '../support/engine';

/**
 * The web inbox in real headless Chromium against the whole stack in this process: the cookie
 * holds the token, the page loads its lists and follows the project's live stream.
 */
const harness = useInboxStack();
let stack: Stack;
beforeAll(() => {
  stack = harness.stack;
});

type Role = InboxRole;

const person = (user: string, project: string, role: Role = 'developer'): Promise<UserBrowser> =>
  harness.person(user, project, role);

const declare = (project: string, extra: Declaration = {}): Promise<string> =>
  new TestEngine(stack.baseUrl).declare(project, {
    sessionId: 's-42',
    autor: 'criativo',
    pergunta: 'Should GET /:codigo accept lowercase codes?',
    sugestao: 'Yes — normalise to upper case before the lookup',
    afeta: { regras: ['RN-858'], historias: ['H-12'], tarefas: ['T-31'] },
    ...extra,
  });

const card = (b: UserBrowser, questionId: string) =>
  b.page.locator(`.queue .card[data-question-id="${questionId}"]`);
const countBadge = (b: UserBrowser) => b.page.locator('#open-questions .count');
const text = async (b: UserBrowser, selector: string) =>
  (await b.page.locator(selector).innerText()).replace(/\s+/g, ' ').trim();

describe('answering in the queue', () => {
  it('the author accepts a suggestion: the card leaves, and another member sees the count drop live', async () => {
    const P = 'accept';
    const first = await declare(P);
    await declare(P, {
      autor: 'arquiteto',
      pergunta: 'Keep the legacy /v1 routes for one more release?',
      sugestao: 'Keep them until 2.4, then remove',
      afeta: { regras: [], historias: ['H-7'], tarefas: [] },
    });
    await declare(P, {
      autor: 'po',
      pergunta: 'Which currency do invoices use?',
      sugestao: null,
      afeta: { regras: ['RN-12'], historias: [], tarefas: [] },
    });
    const ana = await person('ana', P);
    const bruno = await person('bruno', P, 'viewer');
    expect(await countBadge(bruno).innerText()).toContain('3');
    await bruno.page.evaluate(() => Object.assign(window, { notReloaded: true }));
    await ana.screenshot('inbox-author');

    await card(ana, first).getByRole('button', { name: 'Accept suggestion' }).click();

    await card(ana, first).waitFor({ state: 'detached' });
    await bruno.page.waitForFunction(() =>
      document.querySelector('#open-questions .count')?.textContent?.includes('2'),
    );
    await card(bruno, first).waitFor({ state: 'detached' });
    expect(
      await bruno.page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded),
    ).toBe(true);
    // the decision reached the history of both, with who answered and how
    const decision = bruno.page.locator(`.history .decision[data-question-id="${first}"]`);
    await decision.waitFor();
    expect((await decision.innerText()).replace(/\s+/g, ' ')).toMatch(
      /Should GET \/:codigo accept lowercase codes\? Decision Yes — normalise to upper case before the lookup suggestion accepted Answered by ana by click/i,
    );
    expect(await text(ana, '.readiness .notice')).toBe('! 2 questions are still open — answer');
    await bruno.screenshot('inbox-member-after-live-update');
  });

  it('a member who is not the author sees the controls inert and the reason said once', async () => {
    const P = 'inert';
    await declare(P);
    await declare(P, {
      autor: 'dev_lead',
      pergunta: 'Log the full request body on errors?',
      sugestao: 'No — only the correlation id',
    });
    const bruno = await person('bruno', P, 'viewer');
    const cards = bruno.page.locator('.queue .card');
    await waitFor(async () => (await cards.count()) === 2, { what: 'two cards' });

    for (const name of ['Accept suggestion', 'Answer']) {
      const buttons = bruno.page.getByRole('button', { name, exact: true });
      expect(await buttons.count()).toBe(2);
      for (const b of await buttons.all()) {
        expect(await b.isVisible()).toBe(true);
        expect(await b.isDisabled()).toBe(true);
      }
    }
    for (const input of await bruno.page.getByLabel('Your answer').all())
      expect(await input.isDisabled()).toBe(true);
    const reason = 'Only ana, who led the session where this question was born, can answer it.';
    const page = await bruno.page.locator('body').innerText();
    expect(page.split(reason).length - 1).toBe(1);
    expect(await bruno.page.locator('.inert-note').count()).toBe(1);
    // each inert card points to that one sentence for assistive technology
    const described = await bruno.page
      .locator('.queue fieldset')
      .evaluateAll((sets) => sets.map((s) => s.getAttribute('aria-describedby')));
    expect(described).toEqual(['inert-0', 'inert-0']);
    await bruno.screenshot('inbox-non-author');
    // The same page on a phone, and in dark mode: still readable.
    await bruno.page.setViewportSize({ width: 390, height: 844 });
    await bruno.screenshot('inbox-phone');
    await bruno.page.setViewportSize({ width: 1360, height: 900 });
    await bruno.page.emulateMedia({ colorScheme: 'dark' });
    await bruno.screenshot('inbox-dark');
  });
});

describe('what a question affects', () => {
  it('the card lists the rules, stories and tasks it affects, group by group; none listed says so', async () => {
    const P = 'affects';
    const full = await declare(P, {
      afeta: { regras: ['RN-858', 'RN-12'], historias: ['H-12'], tarefas: ['T-31', 'T-32'] },
    });
    const partial = await declare(P, {
      pergunta: 'Round refunds to cents?',
      afeta: { regras: [], historias: [], tarefas: ['T-7'] },
    });
    const none = await declare(P, {
      pergunta: 'Which logo on the invoice?',
      afeta: { regras: [], historias: [], tarefas: [] },
    });
    const ana = await person('ana', P);
    const affects = (questionId: string) => card(ana, questionId).locator('.affects');
    await card(ana, none).waitFor();
    const groups = async (questionId: string) =>
      affects(questionId)
        .locator('.affects-group')
        .evaluateAll((dds) =>
          dds.map((dd) =>
            [dd.querySelector('.affects-label'), ...Array.from(dd.querySelectorAll('.chip'))]
              .map((el) => el?.textContent?.trim())
              .join(' '),
          ),
        );
    expect(await affects(full).locator('.affects-title').innerText()).toBe('Affects');
    expect(await groups(full)).toEqual(['Rules RN-858 RN-12', 'Stories H-12', 'Tasks T-31 T-32']);
    expect(await groups(partial)).toEqual(['Tasks T-7']);
    expect(await affects(none).innerText()).toBe('Affects nothing listed.');
  });
});

describe('errors in words', () => {
  it('says why an answer failed, and falls back to the message for a reason it does not know', async () => {
    const P = 'errors';
    const q = await declare(P);
    const ana = await harness.open('ana', P, 'developer');
    // This page gets no live updates, so it still shows the question once it is answered elsewhere.
    await ana.page.route('**/stream', (route) => route.abort());
    // …and the gates service answers with a reason the page has never heard of.
    await ana.page.route('**/waiting', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({
          statusCode: 503,
          reason: 'algo_novo',
          message: 'the gates are being repainted',
        }),
      }),
    );
    await ana.inbox(stack.baseUrl, P);
    ana.problems.length = 0; // the refused stream and the 503 above are on purpose

    const waitingError = ana.page.locator('.waiting .error');
    await waitingError.waitFor();
    expect(await text(ana, '.waiting .error')).toBe('The gates are being repainted. Try again');

    const other = await stack.http('POST', `/projects/${P}/open-questions/${q}/answer`, {
      token: stack.token('ana', P, 'viewer'),
      body: { resposta: 'Answered from another tab' },
    });
    expect(other.status).toBe(200);
    await card(ana, q).getByRole('button', { name: 'Accept suggestion' }).click();
    // The card leaves (the question is no longer open); the queue says why, in words.
    await card(ana, q).waitFor({ state: 'detached' });
    expect(await text(ana, '.queue .queue-note')).toBe(
      '“Should GET /:codigo accept lowercase codes?” was already answered elsewhere; it has left the queue.',
    );
    await ana.screenshot('inbox-errors');
    ana.problems.length = 0;
  });

  it('sends an answer again with the same Idempotency-Key after a lost reply, and shows it as answered', async () => {
    const P = 'lost-reply';
    const q = await declare(P);
    const ana = await harness.open('ana', P, 'developer');
    // No live updates: the card must leave because of the retry's reply, not the stream.
    await ana.page.route('**/stream', (route) => route.abort());
    const keys: string[] = [];
    let first = true;
    await ana.page.route('**/answer', async (route) => {
      keys.push(route.request().headers()['idempotency-key'] ?? '');
      if (!first) return route.continue();
      first = false;
      await route.fetch(); // the answer reaches openq and is recorded…
      await route.abort('connectionreset'); // …but its reply never reaches the page
    });
    await ana.inbox(stack.baseUrl, P);

    await card(ana, q).getByRole('button', { name: 'Accept suggestion' }).click();
    await card(ana, q).locator('.error').waitFor();
    const recorded = await stack.http('GET', `/projects/${P}/open-questions?status=answered`, {
      token: stack.token('ana', P, 'viewer'),
    });
    expect(recorded.body.items.map((i: { questionId: string }) => i.questionId)).toEqual([q]);

    await card(ana, q).getByRole('button', { name: 'Accept suggestion' }).click();
    await card(ana, q).waitFor({ state: 'detached' });
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(keys[1]).toBe(keys[0]);
    // Answered, in the history — not "answered elsewhere".
    expect(await ana.page.locator('.queue .queue-note').count()).toBe(0);
    await ana.page.locator('.history').getByText('Yes — normalise to upper case before the lookup').waitFor();
    ana.problems.length = 0; // the refused stream and the cut reply are on purpose
  });
});

describe('readiness', () => {
  it('shows "N questions are still open — answer" next to the two buttons, never blocking them, live', async () => {
    const P = 'ready';
    const ids = [await declare(P), await declare(P, { pergunta: 'Paginate the export?' })];
    const ana = await person('ana', P);
    const notice = () => text(ana, '.readiness .notice');
    expect(await notice()).toBe('! 2 questions are still open — answer');

    await ana.page.getByRole('button', { name: "I'm ready" }).click();
    await ana.page.locator('.readiness .checked').waitFor();
    expect(await text(ana, '.readiness .checked')).toContain('goes ahead');
    for (const name of ["I'm ready", 'Confirm architecture ready'])
      expect(await ana.page.getByRole('button', { name }).isEnabled()).toBe(true);

    await declare(P, { pergunta: 'Retry failed webhooks?' });
    await ana.page.waitForFunction(() =>
      document.querySelector('.readiness .notice')?.textContent?.includes('3 questions'),
    );
    for (const id of ids) {
      const r = await stack.http('POST', `/projects/${P}/open-questions/${id}/answer`, {
        token: stack.token('ana', P, 'viewer'),
        body: { aceitarSugestao: true },
      });
      expect(r.status).toBe(200);
    }
    await ana.page.waitForFunction(() =>
      document.querySelector('.readiness .notice')?.textContent?.includes('1 question is'),
    );
    expect(await notice()).toBe('! 1 question is still open — answer');

    await ana.page.getByRole('link', { name: 'answer', exact: true }).click();
    await ana.page.waitForFunction(() => document.activeElement?.id === 'open-questions');
    await ana.screenshot('inbox-readiness');
  });
});

describe('keyboard only', () => {
  it('answers with Tab, typing and Enter', async () => {
    const P = 'keys';
    const first = await declare(P);
    const second = await declare(P, {
      pergunta: 'Keep the audit log for 90 days?',
      sugestao: 'Yes, 90 days',
    });
    const ana = await person('ana', P);
    const focused = () =>
      ana.page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        return {
          tag: el?.tagName,
          id: el?.id,
          text: el?.textContent?.trim(),
          card: el?.closest('.card')?.getAttribute('data-question-id'),
        };
      });

    await ana.page.keyboard.press('Tab');
    expect(await focused()).toMatchObject({ tag: 'A', text: 'Skip to open questions' });
    await ana.page.keyboard.press('Enter');
    await ana.page.waitForFunction(() => document.activeElement?.id === 'open-questions');
    // The queue's order (issue #18) comes first in the panel: two buttons, then the cards.
    await ana.page.keyboard.press('Tab');
    expect(await focused()).toMatchObject({ tag: 'BUTTON', text: 'Blocks most' });
    await ana.page.keyboard.press('Tab');
    expect(await focused()).toMatchObject({ tag: 'BUTTON', text: 'Oldest' });
    // Then the filters (issue #18 triage): the search box, whose questions, "More filters" (closed).
    for (const stop of [
      { tag: 'INPUT', id: 'filter-q' },
      { tag: 'BUTTON', text: 'All' },
      { tag: 'BUTTON', text: 'Mine' },
      { tag: 'BUTTON', text: "Can't answer" },
      { tag: 'SUMMARY', text: 'More filters' },
    ]) {
      await ana.page.keyboard.press('Tab');
      expect(await focused()).toMatchObject(stop);
    }
    // A card Ana can answer with a suggestion starts with its "Select" box (multi-select accept)
    // and its details, then its actions.
    await ana.page.keyboard.press('Tab');
    expect(await focused()).toMatchObject({ tag: 'INPUT', id: `sel-${first}`, card: first });
    await ana.page.keyboard.press('Tab');
    expect(await focused()).toMatchObject({ tag: 'SUMMARY', text: 'Details', card: first });
    await ana.page.keyboard.press('Tab');
    expect(await focused()).toMatchObject({ tag: 'BUTTON', text: 'Accept suggestion', card: first });
    await ana.page.keyboard.press('Tab');
    expect(await focused()).toMatchObject({ tag: 'INPUT', card: first });
    await ana.page.keyboard.type('Only upper case; answer 404 for lowercase');
    await ana.screenshot('inbox-keyboard', { fullPage: false });
    await ana.page.keyboard.press('Enter');

    await card(ana, first).waitFor({ state: 'detached' });
    const decision = ana.page.locator(`.history .decision[data-question-id="${first}"]`);
    await decision.waitFor();
    expect(await decision.innerText()).toContain('Only upper case; answer 404 for lowercase');
    expect(await decision.innerText()).not.toContain('suggestion accepted');
    // focus moved to the card that took its place, so the next Tab continues there
    await ana.page.waitForFunction(
      (id) => document.activeElement?.getAttribute('data-question-id') === id,
      second,
    );
    await ana.page.keyboard.press('Tab');
    expect(await focused()).toMatchObject({ tag: 'INPUT', id: `sel-${second}`, card: second });
  });
});

describe('signing in', () => {
  it('shows a sign-in hint without a token, and the development sign-in leads to the inbox', async () => {
    const P = 'signin';
    await declare(P);
    const visitor = await harness.open(null, 'none');
    await visitor.page.goto(stack.baseUrl);
    await visitor.page.getByRole('heading', { name: 'Sign in to openq' }).waitFor();
    expect(await visitor.page.locator('main').innerText()).toContain('You are not signed in.');
    await visitor.screenshot('signin-hint');

    await visitor.page.getByRole('link', { name: 'Sign in (development)' }).click();
    await visitor.page.getByLabel('User id').fill('dora');
    await visitor.page.getByLabel('Project').fill(P);
    await visitor.page.getByLabel('Role').selectOption('viewer');
    await visitor.screenshot('dev-login');
    await visitor.page.getByRole('button', { name: 'Sign in' }).click();

    await visitor.page.locator('#open-questions').waitFor();
    expect(await text(visitor, '.who')).toBe('Signed in as dora');
    expect(await visitor.page.locator('#project-picker').inputValue()).toBe(P);
    const [cookie] = await visitor.context.cookies();
    expect(cookie).toMatchObject({ name: 'openq_token', httpOnly: true, sameSite: 'Lax' });
    await visitor.page.locator('.live-live').waitFor();
  });
});
