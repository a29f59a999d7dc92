import { OpenqEvent } from '@openq/contracts';
import { waitFor } from '@openq/testing';
import { ask, publishVerdict, startGate } from '../support/gates';
import { useInboxStack } from '../support/inbox-harness';
import { TestEngine } from '../support/engine';

/**
 * Issue #18 in the web inbox, in real headless Chromium against the whole stack: the question
 * that blocks a QA gate comes first and says so ("Blocks: QA gate on T-101 (2 h)"); the order can
 * be switched to oldest first (and is kept in the URL); after the answer the inbox says what it
 * did ("QA gate on T-101 resumed."), from the live events.
 */
const harness = useInboxStack();

const declare = (project: string, pergunta: string, toolCallId: string): Promise<string> =>
  new TestEngine(harness.stack.baseUrl).declare(project, {
    sessionId: 's-1',
    autor: 'arquiteto',
    pergunta,
    toolCallId,
  });

describe('blocking cost in the inbox', () => {
  it('the blocking question comes first with what it blocks; oldest first on request; the answer says what it did', async () => {
    const P = 'inbox-blocking';
    const { stack } = harness;
    const older = await declare(P, 'Which font for the PDF export?', 'blk-1');
    const older2 = await declare(P, 'Paginate the audit log by 50 or 100?', 'blk-2');
    await startGate(stack, P, 'T-101');
    await publishVerdict(stack, P, 'T-101', 'r1', [
      ask('functional', 'Archived code: 404 or 410?', '410 Gone'),
    ]);
    const parked = await waitFor(
      () =>
        stack.events
          .ofType<Record<string, unknown>>(OpenqEvent.GateRescueParked)
          .find((e) => e.projectId === P && e.data['taskId'] === 'T-101'),
      { what: 'T-101 parked' },
    );
    const blocker = (parked.data['questionIds'] as string[])[0]!;
    // The park is two hours old (the instant "Waiting for you" reads too).
    await stack
      .service('gates')
      .dataSource.query(
        `UPDATE gate_cycle SET updated_at = now() - interval '2 hours' WHERE project_id = $1 AND task_id = 'T-101'`,
        [P],
      );

    const ana = await harness.person('ana', P, 'viewer');
    const cards = ana.page.locator('.queue .card');
    await cards.nth(2).waitFor();
    const order = () => cards.evaluateAll((els) => els.map((e) => e.getAttribute('data-question-id')));
    expect(await order()).toEqual([blocker, older, older2]);
    const first = cards.nth(0);
    expect((await first.locator('.blocks').innerText()).replace(/\s+/g, ' ')).toBe(
      'Blocks: QA gate on T-101 (2 h)',
    );
    expect(await cards.nth(1).locator('.blocks').count()).toBe(0);
    expect(await ana.page.getByRole('button', { name: 'Blocks most' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    await ana.screenshot('inbox-blocking');

    // Oldest first, kept in the URL (a deep link), and back.
    await ana.page.getByRole('button', { name: 'Oldest' }).click();
    await waitFor(async () => (await order())[0] === older, { what: 'oldest first' });
    expect(await order()).toEqual([older, older2, blocker]);
    expect(new URL(ana.page.url()).searchParams.get('sort')).toBe('oldest');
    await ana.page.reload();
    await ana.page.locator('.live-live').waitFor();
    await cards.nth(2).waitFor();
    expect(await order()).toEqual([older, older2, blocker]);
    expect(await ana.page.getByRole('button', { name: 'Oldest' }).getAttribute('aria-pressed')).toBe('true');
    await ana.page.getByRole('button', { name: 'Blocks most' }).click();
    await waitFor(async () => (await order())[0] === blocker, { what: 'blocking most first again' });

    // On a phone the blocking card is on top, and says what it blocks.
    await ana.page.setViewportSize({ width: 390, height: 844 });
    await ana.screenshot('inbox-blocking-mobile', { fullPage: false });
    const sortBox = await ana.page.getByRole('button', { name: 'Oldest' }).boundingBox();
    expect(sortBox!.height).toBeGreaterThanOrEqual(44);
    await ana.page.setViewportSize({ width: 1360, height: 900 });

    // Close the loop: accepting the suggestion resumes the gate, and the inbox says so.
    await first.getByRole('button', { name: 'Accept suggestion' }).click();
    await ana.page.locator('.effects').getByText('QA gate on T-101 resumed.').waitFor();
    await ana.page.locator(`.queue .card[data-question-id="${blocker}"]`).waitFor({ state: 'detached' });
    await ana.screenshot('inbox-blocking-resumed');
    expect(await order()).toEqual([older, older2]);
  });
});
