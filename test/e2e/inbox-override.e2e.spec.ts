import { waitFor } from '@openq/testing';
import type { UserBrowser } from '@openq/testing/browser';
import { ask, askExisting, publishVerdict, startGate } from '../support/gates';
import { useInboxStack } from '../support/inbox-harness';
import type { Stack } from '../support/stack';

/**
 * SPEC §11.1 in the inbox: on a gate parked on a decision a maintainer finds "Resume without the
 * answer", must write why, and the gate history then says "Resumed by override — who: why".
 * A developer sees the control inert with the reason said once.
 */
const P = 'override';
const harness = useInboxStack();
let stack: Stack;
beforeAll(() => {
  stack = harness.stack;
});

const task = (b: UserBrowser, taskId: string) => b.page.locator(`.waiting .task[data-task-id="${taskId}"]`);
const text = async (b: UserBrowser, selector: string) =>
  (await b.page.locator(selector).first().innerText()).replace(/\s+/g, ' ').trim();

async function parkOnDecision(taskId: string, pergunta: string): Promise<void> {
  await startGate(stack, P, taskId);
  await publishVerdict(stack, P, taskId, `round-${taskId}`, [ask('functional', pergunta)]);
  await waitFor(
    async () => {
      const r = await stack.http('GET', `/projects/${P}/waiting`, { token: stack.token('ana', P, 'viewer') });
      return (r.body.items as { taskId: string }[]).some((c) => c.taskId === taskId);
    },
    { what: `${taskId} parked on a decision` },
  );
}

describe('resume without the answer', () => {
  it('is inert for a developer, with the reason said once', async () => {
    await parkOnDecision('T-51', 'Should archived codes answer 404 or 410?');
    const dan = await harness.person('dan', P, 'developer');
    await task(dan, 'T-51').waitFor();
    const button = task(dan, 'T-51').getByRole('button', { name: 'Resume without the answer…' });
    expect(await button.isDisabled()).toBe(true);
    const reason =
      'Resuming a gate without the answer needs the maintainer role on this project; you are a developer.';
    expect((await dan.page.locator('body').innerText()).split(reason).length - 1).toBe(1);
    expect(await button.getAttribute('aria-describedby')).toBe('override-reason');
  });

  it('lets a maintainer resume with a required reason, shown in the gate history; the question stays open', async () => {
    await parkOnDecision('T-52', 'Is a lowercase código the same product as its upper-case form?');
    const maria = await harness.person('maria', P, 'maintainer');
    const ana = await harness.person('ana', P, 'developer');
    const card = task(maria, 'T-52');
    await card.waitFor();

    await card.getByRole('button', { name: 'Resume without the answer…' }).click();
    const field = card.getByLabel(/Why resume without the answer\?/);
    expect(await field.evaluate((el) => el === document.activeElement)).toBe(true);
    // Only blanks: the page says what is missing and sends nothing.
    await field.fill('   ');
    await card.getByRole('button', { name: 'Resume without the answer', exact: true }).click();
    expect(await card.getByRole('alert').innerText()).toBe(
      'Write why you resume without the answer (1 to 500 characters).',
    );
    expect(await card.isVisible()).toBe(true);

    const why = 'Customer confirmed by phone: same product; QA can go on (ticket 4411)';
    await field.fill(why);
    await maria.screenshot('inbox-override-form');
    await card.getByRole('button', { name: 'Resume without the answer', exact: true }).click();
    await card.waitFor({ state: 'detached' });

    // The history says who and why, in both browsers (live for the other one).
    const line = `Resumed by override — maria: ${why}`;
    for (const b of [maria, ana]) {
      await b.page.locator('.gate-history .event.override').first().waitFor();
      expect(await text(b, '.gate-history .event.override .event-what')).toBe(line);
      expect(await text(b, '.gate-history .event.override .task-title')).toBe('T-52 QA gate just now');
    }
    await maria.screenshot('inbox-override-history');

    // The question is still in the queue, open for ana to answer.
    await ana.page
      .locator('.queue .card', { hasText: 'Is a lowercase código the same product as its upper-case form?' })
      .waitFor();
  });

  it('shows a verdict refused for citing a question that does not exist (§11.1), the gate still running', async () => {
    await startGate(stack, P, 'T-53');
    const ghost = '0190a3b8-7c1d-7e2f-8a3b-00000000dead';
    await publishVerdict(stack, P, 'T-53', 'round-ghost', [askExisting('functional', ghost)]);
    const ana = await harness.person('ana', P, 'developer');
    const line = `Verdict refused: it cited question ${ghost}, which is not in this project. The gate keeps running.`;
    await ana.page.locator('.gate-history .event', { hasText: 'Verdict refused' }).first().waitFor();
    expect(await text(ana, '.gate-history .event.rejected .event-what')).toBe(line);
    // Nothing parked: no card waits for anyone.
    expect(await ana.page.locator('.waiting .task[data-task-id="T-53"]').count()).toBe(0);
    await ana.screenshot('inbox-verdict-refused');
  });
});
