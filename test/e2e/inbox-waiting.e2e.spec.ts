import { AgentEvent } from '@openq/contracts';
import { waitFor } from '@openq/testing';
import { IdleSweep } from '../../services/gates/src/gates/sweep/idle-sweep';
import { UserBrowser } from '@openq/testing/browser';
import { useInboxStack } from '../support/inbox-harness';
import type { Stack } from '../support/stack';

/**
 * "Waiting for you" in the inbox, driven as the engine would: a QA verdict that needs the
 * user's decision parks the gate (gates service), the page shows the task with its question,
 * and the answer resumes it live. Idle-parked gates offer "Resume gate" to developers.
 */
const P = 'waits';
const harness = useInboxStack();
let stack: Stack;
beforeAll(() => {
  stack = harness.stack;
});

const person = (user: string, role: 'viewer' | 'developer'): Promise<UserBrowser> =>
  harness.person(user, P, role);

const startGate = (taskId: string) =>
  stack.publishAgentEvent(AgentEvent.GateStarted, P, {
    taskId,
    gate: 'qa',
    sessionId: 'exec-1',
    sessionAuthorId: 'ana',
  });

const task = (b: UserBrowser, taskId: string) => b.page.locator(`.waiting .task[data-task-id="${taskId}"]`);

describe('waiting for you', () => {
  it('shows a task whose gate is parked on a decision, with its question, until the answer resumes it', async () => {
    await startGate('T-77');
    const ana = await person('ana', 'developer');
    await stack.publishAgentEvent(AgentEvent.QaVerdict, P, {
      roundId: 'round-1',
      taskId: 'T-77',
      gate: 'qa',
      sessionId: 'exec-1',
      sessionAuthorId: 'ana',
      verdicts: [
        {
          subspecialty: 'functional',
          veredito: 'needs_user_decision',
          resumo: 'GET /:codigo: lowercase handling is "not confirmed by the user"',
          itens: [],
          pergunta: 'Is a lowercase código the same product as its upper-case form?',
          sugestao: 'Yes — the same product; normalise to upper case',
        },
      ],
    });

    const waiting = task(ana, 'T-77');
    await waiting.waitFor();
    await ana.page.waitForFunction(() => document.querySelector('.waiting .task-questions a'));
    expect((await waiting.innerText()).replace(/\s+/g, ' ')).toBe(
      'T-77 QA gate parked just now Resumes by itself once this question is answered: ' +
        'Is a lowercase código the same product as its upper-case form? — ana decides ' +
        'Resume without the answer…', // inert for a developer (§11.1: maintainer)
    );
    expect(await ana.page.locator('#waiting-title .count').innerText()).toContain('1');
    await ana.screenshot('inbox-waiting-for-you');

    // The link leads to the question's card (asked by QA in ana's execution session)…
    await waiting.getByRole('link').click();
    const card = ana.page.locator('.queue .card:focus');
    await card.waitFor();
    expect((await card.innerText()).replace(/\s+/g, ' ')).toMatch(
      /QA asked .* session of ana · from a QA verdict/,
    );
    // …where the answer resumes the gate, live.
    await card.getByRole('button', { name: 'Accept suggestion' }).click();
    await waiting.waitFor({ state: 'detached' });
    await ana.page.getByText('No task is waiting on a decision.').waitFor();
  });

  it('offers "Resume gate" on an idle-parked gate: inert for a viewer with the reason said once, working for a developer', async () => {
    await startGate('T-88');
    await startGate('T-89');
    const sweep = stack.service('gates').app.get(IdleSweep);
    await waitFor(
      async () => {
        await sweep.sweepOnce(new Date(Date.now() + 3 * 3600_000));
        const r = await stack.http('GET', `/projects/${P}/waiting`, {
          token: stack.token('ana', P, 'viewer'),
        });
        const idle = (r.body.items as { taskId: string; parkedReason: string }[]).filter(
          (c) => c.parkedReason === 'idle',
        );
        return ['T-88', 'T-89'].every((t) => idle.some((c) => c.taskId === t));
      },
      { what: 'T-88 and T-89 idle-parked' },
    );

    const carla = await person('carla', 'viewer');
    await task(carla, 'T-88').waitFor();
    const buttons = carla.page.getByRole('button', { name: 'Resume gate' });
    expect(await buttons.count()).toBeGreaterThanOrEqual(2); // T-77, resumed by the answer above, idles too
    for (const b of await buttons.all()) expect(await b.isDisabled()).toBe(true);
    const reason = 'Resuming a gate needs the developer role on this project; you are a viewer.';
    expect((await carla.page.locator('body').innerText()).split(reason).length - 1).toBe(1);
    expect((await task(carla, 'T-88').innerText()).replace(/\s+/g, ' ')).toBe(
      'T-88 QA gate parked just now Resume gate',
    );
    await carla.screenshot('inbox-idle-parked-viewer');

    const dev = await person('dan', 'developer');
    await task(dev, 'T-88').getByRole('button', { name: 'Resume gate' }).click();
    await task(dev, 'T-88').waitFor({ state: 'detached' });
    await task(carla, 'T-88').waitFor({ state: 'detached' }); // live for the viewer too
    expect(await task(carla, 'T-89').isVisible()).toBe(true);
  });
});
