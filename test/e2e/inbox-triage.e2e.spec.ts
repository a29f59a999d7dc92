import { waitFor } from '@openq/testing';
import { UserBrowser } from '@openq/testing/browser';
import { useInboxStack } from '../support/inbox-harness';
import { SEED_PROJECTS, seedInbox, type InboxSeed, type SeededQuestion } from '../support/inbox-seed';

/**
 * Issue #18 triage in the web inbox, in real headless Chromium against the whole stack, on the
 * shared seed (200 questions over 3 projects): the filters narrow the cards, the search finds by a
 * word, a deep link (and Back) restores the filter state, and "All projects" shows every project's
 * questions with the project on each card and a live update arriving from another project.
 * Screenshots at 1280×800 and 390×844.
 */
const harness = useInboxStack();
let seed: InboxSeed;
const browsers: UserBrowser[] = [];

beforeAll(async () => {
  seed = await seedInbox(harness.stack);
}, 240_000);

afterEach(async () => {
  for (const b of browsers.splice(0)) {
    expect(b.problems).toEqual([]);
    await b.close();
  }
});

const [WEB, , DATA] = SEED_PROJECTS;
const DESKTOP = { width: 1280, height: 800 };
const MOBILE = { width: 390, height: 844 };

async function open(viewport: { width: number; height: number }, path: string): Promise<UserBrowser> {
  const b = await UserBrowser.open(harness.stack.baseUrl, seed.token('ana'), viewport);
  browsers.push(b);
  await b.page.goto(`${harness.stack.baseUrl}${path}`);
  await b.page.locator('.live-live').waitFor();
  await settled(b);
  return b;
}

/** The queue shows what the last request brought (no loading line, no "Searching…"). */
async function settled(b: UserBrowser): Promise<void> {
  await b.page.locator('#open-questions').waitFor();
  await b.page.waitForFunction(
    () =>
      !document.querySelector('.queue [role="status"].empty') && !/Searching/.test(document.body.innerText),
  );
}

const cardIds = (b: UserBrowser) =>
  b.page.locator('.queue .card').evaluateAll((els) => els.map((e) => e.getAttribute('data-question-id')));

/** Waits until the cards are exactly these questions (in any order; the first page of 50). */
async function showsExactly(
  b: UserBrowser,
  expected: readonly SeededQuestion[],
  what: string,
): Promise<void> {
  const want = expected.map((q) => q.questionId).sort();
  await waitFor(async () => JSON.stringify([...(await cardIds(b))].sort()) === JSON.stringify(want), {
    what,
    timeoutMs: 15_000,
  });
}

describe('inbox triage', () => {
  it('filters narrow the cards, search finds by a word, a deep link and Back restore the filters', async () => {
    const b = await open(DESKTOP, `/?project=${WEB}`);
    const web = seed.of(WEB);
    const url = () => new URL(b.page.url());
    expect(await b.page.locator('.queue .card').count()).toBe(50);

    // Mine: the questions of ana's sessions, the count on the button.
    const mine = web.filter((q) => q.sessionAuthorId === 'ana');
    await b.page.locator('.filter-who [data-who="mine"]').click();
    await showsExactly(b, mine.slice(0, 50), 'only ana’s questions');
    expect(url().searchParams.get('who')).toBe('mine');
    expect(await b.page.locator('.filter-who [data-who="mine"] .n').innerText()).toBe(String(mine.length));
    expect(await b.page.locator('.filter-who [data-who="others"] .n').innerText()).toBe(
      String(web.length - mine.length),
    );
    expect(await b.page.locator('.queue .card fieldset[disabled]').count()).toBe(0);

    // Asked by the PO, behind "More filters" (closed until a filter there is set).
    expect(await b.page.locator('details.filter-more').getAttribute('open')).toBeNull();
    await b.page.locator('details.filter-more summary').click();
    await b.page.getByRole('checkbox', { name: /^PO/ }).check();
    const minePo = mine.filter((q) => q.autor === 'po');
    await showsExactly(b, minePo, 'ana’s questions from the PO');
    expect(url().searchParams.get('role')).toBe('po');
    await b.page.locator('.filter-field input[name="task"]').fill('T-2');
    await b.page.locator('.filter-field input[name="task"]').press('Enter');
    const onTask = minePo.filter((q) => q.tarefas.includes('T-2'));
    expect(onTask.length).toBeGreaterThan(0);
    await showsExactly(b, onTask, 'and on task T-2');
    expect(url().searchParams.get('task')).toBe('T-2');
    await b.screenshot('inbox-triage-filters-desktop', { fullPage: false });

    // Clear, then search a Portuguese word by another form of it.
    await b.page.getByRole('button', { name: 'Clear filters' }).click();
    await waitFor(async () => (await b.page.locator('.queue .card').count()) === 50, { what: 'cleared' });
    await b.page.locator('#filter-q').fill('decisões');
    await b.page.locator('#filter-q').press('Enter');
    const decisao = web.filter((q) => q.theme === 'decisao');
    await showsExactly(b, decisao, 'the questions about a decisão');
    expect(await b.page.locator('.filter-summary').innerText()).toContain(
      `${decisao.length} questions match`,
    );
    expect(url().searchParams.get('q')).toBe('decisões');
    await b.screenshot('inbox-triage-search-desktop', { fullPage: false });

    // Back: the filters before the search (none); Forward: the search again.
    await b.page.goBack();
    await waitFor(async () => (await b.page.locator('.queue .card').count()) === 50, { what: 'back' });
    expect(await b.page.locator('#filter-q').inputValue()).toBe('');
    await b.page.goForward();
    await showsExactly(b, decisao, 'forward to the search');

    // A deep link in a fresh page: the search, who and role are restored from the URL.
    const link = `/?project=${WEB}&who=mine&role=po&q=${encodeURIComponent('cadastro CPF')}`;
    const fresh = await open(DESKTOP, link);
    const cpf = mine.filter((q) => q.autor === 'po' && q.theme === 'cpf');
    await showsExactly(fresh, cpf, 'the deep link’s filters');
    expect(await fresh.page.locator('#filter-q').inputValue()).toBe('cadastro CPF');
    expect(await fresh.page.locator('.filter-who [data-who="mine"]').getAttribute('aria-pressed')).toBe(
      'true',
    );
    expect(await fresh.page.locator('details.filter-more').getAttribute('open')).not.toBeNull();
    expect(await fresh.page.getByRole('checkbox', { name: /^PO/ }).isChecked()).toBe(true);
  });

  it('all projects: every card says its project, and a question declared in another project arrives live', async () => {
    const live: SeededQuestion[] = [];
    for (const viewport of [DESKTOP, MOBILE]) {
      const b = await open(viewport, '/?project=*');
      expect(await b.page.locator('#project-picker').inputValue()).toBe('*');
      expect((await b.page.locator('#open-questions .count').innerText()).replace(/\D/g, '')).toBe(
        String(200 + live.length),
      );
      const tags = await b.page.locator('.queue .card .project-tag').allInnerTexts();
      expect(tags).toHaveLength(50);
      // Blocking first: the six parked QA questions of the three projects lead.
      expect(new Set(tags.slice(0, 6))).toEqual(new Set(SEED_PROJECTS));
      const name = viewport === DESKTOP ? 'desktop' : 'mobile';
      await b.screenshot(`inbox-triage-all-projects-${name}`, { fullPage: false });

      // The same filters: search across the projects.
      await b.page.locator('#filter-q').fill('archived');
      await b.page.locator('#filter-q').press('Enter');
      const archived = [...seed.questions, ...live].filter((q) => q.theme === 'archived');
      await showsExactly(b, archived, 'archived, everywhere');
      await b.page.locator('details.filter-more summary').click();
      await b.page.getByRole('checkbox', { name: /^QA/ }).check();
      await showsExactly(
        b,
        archived.filter((q) => q.autor === 'qa-agent'),
        'QA’s archived questions',
      );
      expect(new URL(b.page.url()).searchParams.get('role')).toBe('qa-agent');
      await b.screenshot(`inbox-triage-all-projects-filters-${name}`, { fullPage: false });
      await b.page.getByRole('checkbox', { name: /^QA/ }).uncheck();
      await showsExactly(b, archived, 'archived, everywhere again');

      // Live: a question declared in acme-data reaches this page.
      const pergunta = `Should archived invoices of ${name} users be purged?`;
      const r = await harness.stack.http('POST', `/internal/projects/${DATA}/open-questions`, {
        service: true,
        body: {
          sessionId: 's-live',
          sessionAuthorId: 'ana',
          autor: 'arquiteto',
          pergunta,
          sugestao: null,
          afeta: { regras: [], historias: [], tarefas: [] },
          toolCallId: `live-${name}`,
        },
      });
      expect(r.status).toBe(201);
      const card = b.page.locator(`.queue .card[data-question-id="${r.body.questionId as string}"]`);
      await card.waitFor();
      expect(await card.locator('.project-tag').innerText()).toBe(DATA);
      live.push({ ...seed.of(DATA)[0]!, questionId: r.body.questionId as string, theme: 'archived' });
      await card.scrollIntoViewIfNeeded();
      await b.screenshot(`inbox-triage-all-projects-live-${name}`, { fullPage: false });
    }
  });
  it('all projects: "Accept suggestions" over cards of two projects, one result per card', async () => {
    const b = await open(DESKTOP, '/?project=*');
    const cards = b.page.locator('.queue .card:has(input[id^="sel-"])');
    const picked = new Map<string, string>();
    for (let i = 0; i < (await cards.count()) && picked.size < 2; i++) {
      const card = cards.nth(i);
      const project = await card.locator('.project-tag').innerText();
      if ([...picked.values()].includes(project)) continue;
      picked.set((await card.getAttribute('data-question-id'))!, project);
      await card.locator('input[id^="sel-"]').check();
    }
    expect(new Set(picked.values()).size).toBe(2);
    await b.page.getByRole('button', { name: 'Accept 2 suggestions' }).click();
    const results = b.page.locator('.bulk-results');
    await results.waitFor();
    expect(await results.locator('h2').innerText()).toBe('2 of 2 suggestions accepted');
    expect(await results.locator('li').count()).toBe(2);
    for (const [questionId, project] of picked) {
      await b.page.locator(`.queue .card[data-question-id="${questionId}"]`).waitFor({ state: 'detached' });
      const r = await harness.stack.http(
        'GET',
        `/projects/${project}/open-questions?status=answered&limit=50`,
        {
          token: seed.token('ana'),
        },
      );
      expect((r.body.items as { questionId: string }[]).map((q) => q.questionId)).toContain(questionId);
    }
    await b.screenshot('inbox-triage-all-projects-bulk-desktop', { fullPage: false });
  });
});
