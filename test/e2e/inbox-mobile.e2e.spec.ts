import { AgentEvent } from '@openq/contracts';
import { useInboxStack } from '../support/inbox-harness';

/**
 * Issue #18 the inbox on a phone (390 × 844), in real headless Chromium against the whole stack:
 * "Waiting for you" and the blocking questions come first in the page order, every tap
 * target (buttons, links, fields, checkboxes with their label, tabs, disclosures) is at least
 * 44 × 44 px, and the header is at most 120 px high and scrolls away (issue #30).
 */
const harness = useInboxStack();
const P = 'hands-mobile';

async function parkOnDecision(taskId: string, pergunta: string, sugestao: string): Promise<void> {
  const { stack } = harness;
  await stack.publishAgentEvent(AgentEvent.GateStarted, P, {
    taskId,
    gate: 'qa',
    sessionId: 'exec-1',
    sessionAuthorId: 'ana',
  });
  await stack.publishAgentEvent(AgentEvent.QaVerdict, P, {
    roundId: `round-${taskId}`,
    taskId,
    gate: 'qa',
    sessionId: 'exec-1',
    sessionAuthorId: 'ana',
    verdicts: [
      {
        subspecialty: 'functional',
        veredito: 'needs_user_decision',
        resumo: 'unconfirmed',
        itens: [],
        pergunta,
        sugestao,
      },
    ],
  });
}

it('puts what waits on the person first and keeps every tap target at 44 × 44 px or more', async () => {
  const { stack } = harness;
  // An older question that blocks nothing, then one a parked QA gate waits on.
  const r = await stack.http('POST', `/internal/projects/${P}/open-questions`, {
    service: true,
    body: {
      sessionId: 's-m',
      sessionAuthorId: 'ana',
      autor: 'arquiteto',
      pergunta: 'Paginate the audit log by 50 or 100?',
      sugestao: '50',
      afeta: { regras: [], historias: [], tarefas: [] },
      toolCallId: 'mobile-1',
    },
  });
  expect(r.status).toBe(201);
  await stack.http('POST', `/internal/projects/${P}/open-questions`, {
    service: true,
    body: {
      sessionId: 's-m',
      sessionAuthorId: 'bruno',
      autor: 'po',
      pergunta: 'Rename the export button?',
      sugestao: null,
      afeta: { regras: [], historias: [], tarefas: [] },
      toolCallId: 'mobile-2',
    },
  });
  await parkOnDecision('T-301', 'Is a lowercase código the same product?', 'Yes — normalise to upper case');
  const token = stack.token('ana', P, 'maintainer');
  // Something in the history too, so its panel and its controls are on the page.
  const open = await stack.http('GET', `/projects/${P}/open-questions?sort=oldest`, { token });
  const first = (open.body.items as { questionId: string }[])[0]!.questionId;

  const ana = await harness.open('ana', P, 'maintainer');
  const page = ana.page;
  await page.setViewportSize({ width: 390, height: 844 });
  await ana.inbox(stack.baseUrl, P);
  await page.locator('.live-live').waitFor();
  await page.locator('.waiting .task[data-task-id="T-301"]').waitFor();
  await page.locator('.queue .card .blocks').first().waitFor();
  await page
    .locator(`.queue .card[data-question-id="${first}"]`)
    .getByRole('button', { name: 'Accept suggestion' })
    .click();
  await page.locator('.history .decision').first().waitFor();

  // Page order (the DOM order, which is also the reading and Tab order): waiting, then the queue
  // with the blocking question first, then the rest.
  const order = await page.evaluate(() => {
    const panels = Array.from(document.querySelectorAll('main section.panel')).map((s) => s.className);
    const top = (sel: string) => document.querySelector(sel)?.getBoundingClientRect().top ?? null;
    return {
      panels,
      waiting: top('.waiting'),
      queue: top('.queue'),
      history: top('.history'),
      pipeline: top('.pipeline'),
      firstCardBlocks: Boolean(document.querySelector('.queue .card')?.querySelector('.blocks')),
    };
  });
  const index = (name: string) => order.panels.findIndex((c) => c.split(' ').includes(name));
  expect(index('waiting')).toBeGreaterThanOrEqual(0);
  expect(index('waiting')).toBeLessThan(index('queue'));
  for (const later of ['history', 'pipeline'])
    if (index(later) >= 0) expect(index(later)).toBeGreaterThan(index('queue'));
  expect(order.waiting!).toBeLessThan(order.queue!);
  expect(order.queue!).toBeLessThan(order.history!);
  expect(order.firstCardBlocks).toBe(true);

  // Open what can be opened, so its controls are measured too.
  await page.locator('.queue .card details.card-details summary').first().click();
  await page.locator('.queue .card').first().getByRole('button', { name: 'Withdraw…' }).click();
  await page.locator('.queue .card').first().getByRole('checkbox').check();
  await page.locator('.bulk-bar').waitFor();

  const small = await page.evaluate(() => {
    const targets = new Set<Element>();
    const selector =
      'button, a[href], input, select, textarea, summary, [role="tab"], [role="button"], label';
    for (const el of Array.from(document.querySelectorAll(selector))) {
      if (el.closest('.visually-hidden') || el.closest('dialog:not([open])')) continue;
      if (el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')) {
        // A checkbox is tapped through its label: the label is the target.
        targets.add(el.closest('label') ?? el);
        continue;
      }
      if (el.tagName === 'LABEL' && !el.querySelector('input[type="checkbox"], input[type="radio"]'))
        continue;
      targets.add(el);
    }
    const out: string[] = [];
    for (const el of targets) {
      const style = getComputedStyle(el);
      if (style.display === 'none' || style.visibility === 'hidden') continue;
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      if (r.width < 44 || r.height < 44) {
        const name = (el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
        out.push(
          `${el.tagName.toLowerCase()}.${el.className} "${name}" ${Math.round(r.width)}×${Math.round(r.height)}`,
        );
      }
    }
    return { out, measured: targets.size };
  });
  expect(small.measured).toBeGreaterThan(10);
  expect(small.out).toEqual([]);

  // Issue #30: the header takes at most 120 px of the phone and scrolls away with the page,
  // never pinned over the questions.
  const header = await page.evaluate(() => {
    window.scrollTo(0, 0);
    const bar = document.querySelector('.topbar')!;
    const height = bar.getBoundingClientRect().height;
    const position = getComputedStyle(bar).position;
    window.scrollTo(0, 300);
    return { height, position, scrolled: window.scrollY, bottom: bar.getBoundingClientRect().bottom };
  });
  expect(header.height).toBeLessThanOrEqual(120);
  expect(header.position).toBe('static');
  expect(header.scrolled).toBe(300);
  expect(header.bottom).toBeLessThan(0);
  await page.evaluate(() => window.scrollTo(0, 0));
  await ana.screenshot('inbox-mobile-390x844', { fullPage: false });
  await ana.screenshot('inbox-mobile-390x844-full');
});
