import { DEV_LINK_SECRET, mintOneTapLink } from '@openq/platform';
import { waitFor } from '@openq/testing';
import { UserBrowser } from '@openq/testing/browser';
import { useInboxStack } from '../support/inbox-harness';
import { TestEngine } from '../support/engine';

/**
 * Issue #17 in real headless Chromium against the whole stack: a person opens a one-tap link from
 * an e-mail (no session cookie), sees the confirm page and presses its one button; and the inbox's
 * own signals — the count of what waits for you in the tab title, live, and opt-in browser
 * notifications of a new question you can answer while the tab is hidden.
 */
const harness = useInboxStack();

const declare = (
  project: string,
  pergunta: string,
  author = 'ana',
  sugestao: string | null = null,
): Promise<string> =>
  new TestEngine(harness.stack.baseUrl).declare(project, {
    sessionId: `s-${author}`,
    sessionAuthorId: author,
    autor: 'arquiteto',
    pergunta,
    sugestao,
    afeta: { regras: ['RN-7'] },
  });

async function statusOf(project: string, questionId: string): Promise<string | undefined> {
  const r = await harness.stack.http('GET', `/projects/${project}/open-questions?status=all&limit=50`, {
    token: harness.stack.token('viewer-1', project, 'viewer'),
  });
  return (r.body.items as { questionId: string; status: string }[]).find((q) => q.questionId === questionId)
    ?.status;
}

const link = (projectId: string, questionId: string, userId = 'ana') =>
  mintOneTapLink({ projectId, questionId, userId, action: 'accept' }, { secret: DEV_LINK_SECRET });

describe('one-tap links and the inbox signals in a browser', () => {
  it('the confirm page answers nothing until its button is pressed, then says what was recorded', async () => {
    const P = 'one-tap-browser';
    const questionId = await declare(
      P,
      'Should the invoice PDF show prices with or without VAT?',
      'ana',
      'With VAT, and the net price below',
    );
    const token = await link(P, questionId);

    // A phone, from the mail app: no session in this browser.
    const phone = await UserBrowser.open(harness.stack.baseUrl, null, { width: 390, height: 844 });
    try {
      await phone.page.goto(`${harness.stack.baseUrl}/l/${token}`);
      await phone.page.getByRole('heading', { name: 'Accept the suggestion?' }).waitFor();
      await phone.page.getByText('With VAT, and the net price below').waitFor();
      await phone.screenshot('one-tap-confirm-390');
      expect(await statusOf(P, questionId)).toBe('open');
      expect(phone.problems).toEqual([]);
    } finally {
      await phone.close();
    }

    const desk = await harness.open(null, P);
    await desk.page.goto(`${harness.stack.baseUrl}/l/${token}`);
    // The same link in a second tab, as when a mail is opened twice.
    const second = await desk.context.newPage();
    await second.goto(`${harness.stack.baseUrl}/l/${token}`);
    const button = desk.page.getByRole('button', { name: 'Accept the suggestion' });
    await button.waitFor();
    await desk.screenshot('one-tap-confirm-desktop');
    expect(await statusOf(P, questionId)).toBe('open');
    await button.click();
    await desk.page.getByRole('heading', { name: 'Answer recorded' }).waitFor();
    expect(await desk.page.getByRole('status').innerText()).toContain('With VAT, and the net price below');
    await desk.screenshot('one-tap-answered');
    expect(await statusOf(P, questionId)).toBe('answered');

    // The second tab's button: the link worked once.
    await second.getByRole('button', { name: 'Accept the suggestion' }).click();
    await second.getByRole('heading', { name: 'This link was already used' }).waitFor();
    expect(await second.locator('[data-reason]').getAttribute('data-reason')).toBe('link_ja_usado');
    await second.close();
    expect(desk.problems).toEqual([]);
  });

  it('counts what waits for you in the tab title, live; notifies a new one while hidden, once opted in', async () => {
    const P = 'one-tap-signals';
    const mine = await declare(P, 'Keep soft-deleted users for 30 or 90 days?', 'ana', '30 days');
    await declare(P, "Bruno's question: rename the billing module?", 'bruno');

    const ana = await harness.open('ana', P, 'developer');
    await ana.context.grantPermissions(['notifications'], { origin: harness.stack.baseUrl });
    // Observe `new Notification(…)` and say when the tab is hidden (a headless tab is always visible).
    await ana.context.addInitScript(() => {
      const w = window as unknown as {
        Notification: unknown;
        __notes: { title: string; body?: string }[];
        __hidden: boolean;
      };
      w.__notes = [];
      w.__hidden = false;
      const Real = window.Notification;
      function Recorded(this: { close(): void }, title: string, options?: { body?: string }) {
        w.__notes.push({ title, body: options?.body });
        this.close = () => undefined;
      }
      Object.defineProperty(Recorded, 'permission', { get: () => Real.permission });
      (Recorded as unknown as { requestPermission: unknown }).requestPermission = () =>
        Real.requestPermission();
      w.Notification = Recorded;
      Object.defineProperty(document, 'visibilityState', {
        configurable: true,
        get: () => (w.__hidden ? 'hidden' : 'visible'),
      });
    });
    await ana.inbox(harness.stack.baseUrl, P);
    await ana.page.locator('.live-live').waitFor();
    const title = () => ana.page.title();
    await waitFor(async () => (await title()) === '(1) openq — Inbox', {
      what: 'the count in the tab title',
    });

    // Opt in: the permission is asked only now, and the choice is remembered.
    await ana.page.getByRole('button', { name: 'Turn on notifications' }).click();
    await ana.page.getByRole('button', { name: 'Notifications on' }).waitFor();
    expect(await ana.page.evaluate(() => localStorage.getItem('openq.notifications'))).toBe('on');
    await ana.screenshot('inbox-signals-notifications-on');

    await ana.page.evaluate(() => {
      (window as unknown as { __hidden: boolean }).__hidden = true;
    });
    const second = await declare(P, 'Send the weekly digest on Monday or Friday?', 'ana', 'Monday');
    await waitFor(async () => (await title()) === '(2) openq — Inbox', { what: 'the count to go up live' });
    const notes = () =>
      ana.page.evaluate(() => (window as unknown as { __notes: { title: string; body?: string }[] }).__notes);
    await waitFor(async () => (await notes()).length === 1, { what: 'a browser notification' });
    expect(await notes()).toEqual([
      { title: 'A question waits for your answer', body: 'Send the weekly digest on Monday or Friday?' },
    ]);
    // Someone else's question: in the queue, not counted, not notified.
    const others = await declare(P, "Bruno's second question: drop IE11?", 'bruno');
    await ana.page.locator(`.queue .card[data-question-id="${others}"]`).waitFor();
    expect(await title()).toBe('(2) openq — Inbox');
    expect(await notes()).toHaveLength(1);

    // An answer elsewhere (a one-tap link) brings the count down.
    const token = await link(P, second);
    const view = await harness.stack.http('GET', `/l/${token}`);
    expect(
      (await harness.stack.http('POST', `/l/${token}`, { body: { confirm: view.body.confirm } })).status,
    ).toBe(200);
    await waitFor(async () => (await title()) === '(1) openq — Inbox', { what: 'the count to go down' });
    expect(await statusOf(P, mine)).toBe('open');

    // The choice survives a reload.
    await ana.page.reload();
    await ana.page.getByRole('button', { name: 'Notifications on' }).waitFor();
  });
});
