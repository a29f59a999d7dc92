import { useInboxStack } from '../support/inbox-harness';
import { TestEngine } from '../support/engine';

/**
 * SPEC §11.5 in the web inbox, in real headless Chromium against the whole stack: the session
 * author withdraws a question from its card with a reason; it leaves the queue and is listed as
 * withdrawn (who, why); anyone else sees no Withdraw control, and sees the withdrawal live.
 */
const harness = useInboxStack();

const declare = (project: string, pergunta: string): Promise<string> =>
  new TestEngine(harness.stack.baseUrl).declare(project, {
    sessionId: 's-7',
    autor: 'arquiteto',
    pergunta,
    afeta: { regras: ['RN-4'] },
  });

describe('withdrawing a question in the inbox', () => {
  it('the session author withdraws with a reason; the card leaves, the question is listed as withdrawn, live for others', async () => {
    const P = 'inbox-withdraw';
    const dropped = await declare(P, 'Do we still need the CSV export?');
    const kept = await declare(P, 'Paginate the audit log by 50 or 100?');

    const bruno = await harness.person('bruno', P, 'viewer');
    const ana = await harness.person('ana', P, 'viewer');
    const card = (b: typeof ana, id: string) => b.page.locator(`.queue .card[data-question-id="${id}"]`);
    await card(ana, dropped).waitFor();
    await card(bruno, dropped).waitFor();
    // Only the session author gets the control.
    expect(await card(bruno, dropped).getByRole('button', { name: 'Withdraw…' }).count()).toBe(0);
    expect(await card(ana, kept).getByRole('button', { name: 'Withdraw…' }).count()).toBe(1);

    await card(ana, dropped).getByRole('button', { name: 'Withdraw…' }).click();
    const reason = card(ana, dropped).getByLabel('Why does it no longer need an answer?');
    await reason.waitFor();
    // No reason: said on the card, nothing sent.
    await card(ana, dropped).getByRole('button', { name: 'Withdraw question' }).click();
    await card(ana, dropped).getByRole('alert').getByText('Write why you withdraw it').waitFor();
    await ana.screenshot('inbox-withdraw-form');
    await reason.fill('The export moved to the reports service');
    await card(ana, dropped).getByRole('button', { name: 'Withdraw question' }).click();

    await card(ana, dropped).waitFor({ state: 'detached' });
    const listed = (b: typeof ana) => b.page.locator(`.withdrawn .decision[data-question-id="${dropped}"]`);
    await listed(ana).waitFor();
    const text = (await listed(ana).innerText()).replace(/\s+/g, ' ');
    expect(text).toContain('Do we still need the CSV export?');
    expect(text).toContain('The export moved to the reports service');
    expect(text).toMatch(/Withdrawn by ana · /);
    expect(await card(ana, kept).count()).toBe(1);
    await ana.page.locator('#open-questions .count').getByText('1').waitFor();

    // Bruno's page hears it on the live stream.
    await card(bruno, dropped).waitFor({ state: 'detached' });
    await listed(bruno).waitFor();
    await ana.screenshot('inbox-withdrawn-listed');
  });
});
