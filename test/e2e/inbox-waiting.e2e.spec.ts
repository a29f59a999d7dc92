import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AgentEvent } from '@openq/contracts';
import { waitFor } from '@openq/testing';
import { IdleSweep } from '../../services/gates/src/gates/commands/sweep-idle/idle-sweep';
import { UserBrowser } from '@openq/testing/browser';
import { useInboxStack } from '../support/inbox-harness';
import type { Stack } from '../support/stack';

/**
 * "Waiting for you" in the inbox, driven as the engine would: a QA verdict that needs the
 * user's decision parks the gate (gates service), the page shows the task with its question,
 * and the answer resumes it live. Idle-parked gates offer "Resume gate" to developers. The same
 * block embedded in a chat's page of another origin (SPEC §12.1, `OPENQ_EMBED_ANCESTORS`).
 */
const P = 'waits';

/**
 * Two chat pages of other origins (other ports of 127.0.0.1: the same site, so the cookie goes
 * along and only the CSP decides), each framing the pending block; only the first is listed.
 */
let gatewayUrl = '';
const chatPage = (): string => `<!doctype html><html lang="en"><head><title>Chat</title></head>
<body style="margin:0;font:14px sans-serif;background:#eef"><p style="margin:8px">The chat, with its pending block:</p>
<iframe id="pending" title="pending" src="${gatewayUrl}/embed/projects/${P}/pending" width="860" height="1100" style="border:1px solid #99a"></iframe>
</body></html>`;
const chats: Server[] = [];
const origins: string[] = [];
const embedEnv: Record<string, string> = {};
beforeAll(async () => {
  for (let i = 0; i < 2; i++) {
    const server = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end(chatPage()),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    chats.push(server);
    origins.push(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  }
  embedEnv['OPENQ_EMBED_ANCESTORS'] = origins[0]!;
});
afterAll(async () => {
  for (const server of chats) await new Promise((resolve) => server.close(resolve));
});
const harness = useInboxStack({ env: embedEnv });
let stack: Stack;
beforeAll(() => {
  stack = harness.stack;
  gatewayUrl = stack.baseUrl;
});

const person = (user: string, role: 'viewer' | 'developer'): Promise<UserBrowser> =>
  harness.person(user, P, role);

const startGate = (taskId: string, sessionAuthorId = 'ana') =>
  stack.publishAgentEvent(AgentEvent.GateStarted, P, {
    taskId,
    gate: 'qa',
    sessionId: 'exec-1',
    sessionAuthorId,
  });

/** QA needs `sessionAuthorId`'s decision on `taskId`: the gate parks on a new question. */
const needsDecision = (taskId: string, sessionAuthorId: string, pergunta: string) =>
  stack.publishAgentEvent(AgentEvent.QaVerdict, P, {
    roundId: `round-${taskId}`,
    taskId,
    gate: 'qa',
    sessionId: 'exec-1',
    sessionAuthorId,
    verdicts: [
      {
        subspecialty: 'functional',
        veredito: 'needs_user_decision',
        resumo: pergunta,
        itens: [],
        pergunta,
        sugestao: 'Yes',
      },
    ],
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

    // Issue #30: with the queue narrowed by a search that leaves the question out, the line says
    // the filters hide it (not that it is further down the queue); clearing them brings the link back.
    await ana.page.locator('#filter-q').fill('nothing in this queue says this');
    await waiting.getByText('A question your filters hide').waitFor();
    expect(await waiting.innerText()).not.toContain('further down');
    await ana.page.getByRole('button', { name: 'Clear filters' }).click();
    await waiting.getByRole('link').waitFor();

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

describe('the embeddable pending block (SPEC §12.1)', () => {
  const embedPath = `/embed/projects/${P}/pending`;
  const get = (path: string, token?: string) =>
    fetch(`${stack.baseUrl}${path}`, { headers: token ? { cookie: `openq_token=${token}` } : {} });

  it('lets only the listed origins frame it; the inbox stays unframable; refusals are pages', async () => {
    const ana = stack.token('ana', P, 'viewer');
    const ok = await get(embedPath, ana);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-security-policy')).toContain(`frame-ancestors ${origins[0]}`);
    expect(ok.headers.get('content-security-policy')).not.toContain(origins[1]);
    expect(await ok.text()).toContain('embed.js');
    const inbox = await get('/', ana);
    expect(inbox.headers.get('content-security-policy')).toContain(`frame-ancestors 'none'`);

    const signedOut = await get(embedPath);
    expect(signedOut.status).toBe(401);
    expect(signedOut.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await signedOut.text()).toContain('Sign in to openq, then come back here.');
    const otherProject = await get('/embed/projects/elsewhere/pending', ana);
    expect(otherProject.status).toBe(403);
    expect(await otherProject.text()).toContain('You have no role on project elsewhere');
    expect(otherProject.headers.get('content-security-policy')).toContain(`frame-ancestors ${origins[0]}`);
  });

  it('renders the caller’s waiting block and the open questions inside a listed origin’s frame, and answers there', async () => {
    await startGate('T-90');
    await needsDecision('T-90', 'ana', 'Round the total per line or per invoice?');
    await startGate('T-91', 'bob');
    await needsDecision('T-91', 'bob', 'May a coupon stack with the loyalty discount?');
    await waitFor(
      async () => {
        const r = await stack.http('GET', `/projects/${P}/waiting`, {
          token: stack.token('ana', P, 'viewer'),
        });
        const parked = (r.body.items as { taskId: string; parkedReason: string }[]).filter(
          (c) => c.parkedReason === 'user_decision',
        );
        return ['T-90', 'T-91'].every((t) => parked.some((c) => c.taskId === t));
      },
      { what: 'T-90 and T-91 parked on a decision' },
    );

    // §12.1 personal in the inbox too: bob's park is shown to ana as his, and not counted as hers.
    const inbox = await person('ana', 'developer');
    await task(inbox, 'T-91').waitFor();
    expect(await task(inbox, 'T-91').getByTestId('waits-for-author').innerText()).toBe(
      'Waits for the author of its session, not for you.',
    );
    expect(await task(inbox, 'T-90').getByTestId('waits-for-author').count()).toBe(0);
    expect(await inbox.page.locator('#waiting-title .count').innerText()).toContain('1');
    await inbox.close();

    const b = await harness.open('ana', P, 'developer');
    await b.page.goto(origins[0]!);
    const frame = b.page.frameLocator('#pending');
    const mine = frame.locator('.waiting .task[data-task-id="T-90"]');
    // Its question is named once the block's queue has loaded (until then it says nothing of it).
    await mine.getByRole('link', { name: 'Round the total per line or per invoice?' }).waitFor();
    // Only what waits on ana: bob's parked gate is not in her block, nor the inbox's other panels.
    expect(await frame.locator('.waiting .task').count()).toBe(1);
    expect((await mine.innerText()).replace(/\s+/g, ' ')).toContain(
      'T-90 QA gate parked just now Resumes by itself once this question is answered: Round the total per line or per invoice?',
    );
    expect(await frame.locator('.waiting').innerText()).not.toContain('Resume without the answer');
    const cards = frame.locator('.queue .card');
    await frame.locator('.queue .card', { hasText: 'May a coupon stack' }).waitFor();
    expect(await frame.locator('#pipeline-title, #history-title, .topbar').count()).toBe(0);
    const hers = frame.locator('.queue .card', { hasText: 'Round the total per line' });
    expect(await hers.getByRole('button', { name: 'Accept suggestion' }).isEnabled()).toBe(true);
    const bobs = frame.locator('.queue .card', { hasText: 'May a coupon stack' });
    expect(await bobs.getByRole('button', { name: 'Accept suggestion' }).isDisabled()).toBe(true);
    await b.screenshot('embed-pending-block-allowed');

    // Answered in the frame: the question leaves, and the gate it parked resumes, live.
    const before = await cards.count();
    await hers.getByRole('button', { name: 'Accept suggestion' }).click();
    await mine.waitFor({ state: 'detached' });
    await frame.getByText('No task is waiting on a decision.').waitFor();
    await waitFor(async () => (await cards.count()) === before - 1, { what: 'the answered card to leave' });
  });

  it('is blocked by CSP in the frame of an origin not listed', async () => {
    const b = await harness.open('ana', P, 'developer');
    await b.page.goto(origins[1]!);
    const refused = (p: string) => p.includes('frame-ancestors');
    await waitFor(() => b.problems.some(refused), { what: 'Chromium to refuse the frame (CSP)' });
    const frame = b.page.frames().find((f) => f !== b.page.mainFrame());
    expect(frame).toBeDefined();
    expect(await frame!.locator('#open-questions').count()).toBe(0);
    await b.screenshot('embed-pending-block-refused');
    // The refusal is the expected outcome here, not a page error.
    b.problems.splice(0, b.problems.length, ...b.problems.filter((p) => !refused(p)));
  });

  it('speaks the person’s language (pt-BR) inside the frame', async () => {
    const b = await harness.open('ana', P, 'developer', { locale: 'pt-BR' });
    await b.page.goto(origins[0]!);
    const frame = b.page.frameLocator('#pending');
    await frame.locator('#open-questions', { hasText: 'Perguntas em aberto' }).waitFor();
    expect(await frame.locator('#waiting-title').innerText()).toContain('Esperando por você');
  });
});
