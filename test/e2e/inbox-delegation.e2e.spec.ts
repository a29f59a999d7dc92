import { refusalSentence } from '@openq/contracts';
import { useInboxStack } from '../support/inbox-harness';
import { setPolicies } from '../support/policies';
import { TestEngine } from '../support/engine';

/**
 * SPEC §11.6 / issue #17 in the web inbox, in real headless Chromium against the whole stack: the
 * session author delegates her answers to a colleague from the "Delegate my answers" panel; the
 * delegate's card says for whom they answer, the delegate answers, and the answered card says
 * "Answered by <delegate> for <author>" (on both pages). Revoked, the grant leaves the panel and
 * the delegate's next card is inert again. Delegation is a project policy, off by default (§12.1):
 * the project turns it on first.
 */
const harness = useInboxStack();

const declare = (project: string, pergunta: string): Promise<string> =>
  new TestEngine(harness.stack.baseUrl).declare(project, {
    sessionId: 's-deleg',
    pergunta,
    afeta: { tarefas: ['T-9'] },
  });

/** `YYYY-MM-DD` of the day `days` from today, UTC (the browsers run in UTC). */
const dayFromToday = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

describe('delegating answers in the inbox', () => {
  it('ana delegates to dani; dani answers for her; both see who answered for whom; revoked, it stops', async () => {
    const P = 'inbox-delegation';
    await setPolicies(harness.stack, P, { delegacao: true });
    const first = await declare(P, 'Ship the beta to 10% or 50% of users?');
    const second = await declare(P, 'Keep the legacy export for one more sprint?');

    const ana = await harness.person('ana', P, 'viewer');
    const panel = ana.page.locator('section.delegation');
    await panel.getByText('No active delegation.').waitFor();
    // Nothing filled: said, nothing sent.
    await panel.getByRole('button', { name: 'Delegate' }).click();
    await panel.getByRole('alert').getByText('Write the user id and choose the date.').waitFor();
    await panel.getByLabel('User id').fill('dani');
    await panel.getByLabel('Until (end of the day)').fill(dayFromToday(7));
    await panel.getByRole('button', { name: 'Delegate' }).click();
    const grant = panel.locator('.grants.given .grant');
    await grant.waitFor();
    expect((await grant.innerText()).replace(/\s+/g, ' ')).toMatch(/^dani, until .+ Revoke$/);
    await ana.screenshot('inbox-delegation-granted');

    const dani = await harness.person('dani', P, 'viewer');
    const card = (id: string) => dani.page.locator(`.queue .card[data-question-id="${id}"]`);
    await card(first).waitFor();
    expect(await card(first).getByTestId('answering-as').innerText()).toMatch(
      /^You answer for ana \(until .+\)$/,
    );
    // The delegate answers, but does not withdraw for the author.
    expect(await card(first).getByRole('button', { name: 'Withdraw…' }).count()).toBe(0);
    await dani.page
      .locator('section.delegation .grants.received')
      .getByText(/^ana, until /)
      .waitFor();
    await dani.screenshot('inbox-delegation-delegate-card');
    await card(first).getByLabel('Your answer').fill('10% first');
    await card(first).getByRole('button', { name: 'Answer' }).click();
    await card(first).waitFor({ state: 'detached' });

    const answered = (b: typeof ana) =>
      b.page.locator(`.history .decision[data-question-id="${first}"] [data-testid="answered-for"]`);
    expect(await answered(dani).innerText()).toBe('Answered by dani for ana');
    // Ana's page hears the answer on the live stream.
    await answered(ana).waitFor();
    expect(await answered(ana).innerText()).toBe('Answered by dani for ana');
    await ana.screenshot('inbox-delegation-answered-for');

    // Revoked: the panel empties. Grants are not streamed: dani's page still offers the card, her
    // click is refused, said above the queue, and the reloaded card is inert.
    await grant.getByRole('button', { name: 'Revoke' }).click();
    await panel.getByText('No active delegation.').waitFor();
    await card(second).getByLabel('Your answer').fill('One more sprint');
    await card(second).getByRole('button', { name: 'Answer' }).click();
    // Said in the refusal catalog's words (issue #30), not the server's English message.
    await dani.page.getByText(refusalSentence('delegacao_revogada', 'en')).first().waitFor();
    await card(second).getByTestId('answering-as').waitFor({ state: 'detached' });
    expect(await card(second).getByLabel('Your answer').isDisabled()).toBe(true);
    await dani.page.locator('section.delegation .grants.received').waitFor({ state: 'detached' });
    await dani.screenshot('inbox-delegation-revoked');
    // The refused click's 403 is on purpose; nothing else may have gone wrong.
    expect(dani.problems).toEqual([expect.stringContaining('403 (Forbidden)')]);
    dani.problems.length = 0;
  });

  it('turned off, a live grant answers nothing, and the delegate’s page no longer says they answer (§12.1)', async () => {
    const P = 'inbox-delegation-off';
    const { stack } = harness;
    await setPolicies(stack, P, { delegacao: true });
    const granted = await stack.http('POST', `/projects/${P}/delegations`, {
      token: stack.token('ana', P, 'viewer'),
      body: { to: 'dani', until: new Date(Date.now() + 7 * 86_400_000).toISOString() },
    });
    expect(granted.status).toBe(201);
    await setPolicies(stack, P, { delegacao: false }, 'only the author answers here after all');
    const id = await declare(P, 'Drop the CSV import in favour of the API?');

    const dani = await harness.person('dani', P, 'viewer');
    const card = dani.page.locator(`.queue .card[data-question-id="${id}"]`);
    await card.waitFor();
    expect(await card.getByTestId('answering-as').count()).toBe(0);
    expect(await card.getByLabel('Your answer').isDisabled()).toBe(true);
    const panel = dani.page.locator('section.delegation');
    await panel
      .locator('.grants.received')
      .getByText(/^ana, until /)
      .waitFor();
    const text = (await panel.innerText()).replace(/\s+/g, ' ');
    expect(text).toContain('Delegated to you, not in force while delegation is off: only the author answers');
    expect(text).not.toContain('You answer for');
    await dani.screenshot('inbox-delegation-off-delegate');
  });
});
