import { OpenqEvent } from '@openq/contracts';
import type { UserBrowser } from '@openq/testing/browser';
import { TestEngine } from '../support/engine';
import { useInboxStack } from '../support/inbox-harness';
import en from '../../apps/inbox/src/locale-en';
import pt from '../../apps/inbox/src/locale-pt-BR';

/**
 * SPEC §12.3 "Ask once" in the web inbox, in real headless Chromium against the whole stack: two
 * agents asking the same thing make one card saying both names (in English and in Brazilian
 * Portuguese, the dictionaries' words); the session author splits the wrong join from the card and
 * gets two questions; a decided question asked again by an agent that insists shows the decision
 * from before — its answer and when — and the agent's reason after it.
 */
const harness = useInboxStack();
const P = 'inbox-ask-once';

type Dictionary = { [key: string]: string | Dictionary };
/** One of the inbox's dictionaries, as the page bundles it. */
const DICTIONARIES: Record<string, Dictionary> = {
  'locale-en.js': en as unknown as Dictionary,
  'locale-pt-BR.js': pt as unknown as Dictionary,
};
const dictionary = (file: string): Dictionary => DICTIONARIES[file]!;
const word = (d: Dictionary, key: string): string =>
  key.split('.').reduce<Dictionary | string>((node, part) => (node as Dictionary)[part]!, d) as string;
const fill = (text: string, values: Record<string, string>): string =>
  text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => values[name]!);

/** "asked by PO and Arquiteto" / "perguntada por PO e Arquiteto", from the words of `file`. */
function askedBy(file: string, language: string, roles: string[]): string {
  const d = dictionary(file);
  const names = roles.map((r) => word(d, `messages.agents.${r}`));
  const agents = new Intl.ListFormat(language, { style: 'long', type: 'conjunction' }).format(names);
  return fill(word(d, 'queue.askOnce.askedBy'), { agents });
}

const engine = () => new TestEngine(harness.stack.baseUrl);
const card = (b: UserBrowser, id: string) => b.page.locator(`.queue .card[data-question-id="${id}"]`);
const text = async (b: UserBrowser, id: string) => (await card(b, id).innerText()).replace(/\s+/g, ' ');

describe('ask once in the inbox', () => {
  it('two agents, one card asked by both (en, pt-BR); the session author splits it into two questions', async () => {
    const google = await engine().declare(P, {
      autor: 'po',
      sessionId: 's-po',
      pergunta: 'Should the login page support Google sign-in?',
    });
    const joined = await engine().client.declare(
      P,
      TestEngine.body({
        autor: 'arquiteto',
        sessionId: 's-arq',
        toolCallId: 'tc-inbox-arq',
        pergunta: 'Do we support sign-in with Google on the login page?',
      }),
    );
    expect(joined).toMatchObject({ questionId: google, joined: true });

    const ana = await harness.person('ana', P, 'viewer');
    const bruno = await harness.person('bruno', P, 'viewer', { locale: 'pt-BR' });
    const english = askedBy('locale-en.js', 'en', ['po', 'arquiteto']);
    const portuguese = askedBy('locale-pt-BR.js', 'pt-BR', ['po', 'arquiteto']);
    expect([english, portuguese]).toEqual(['asked by PO and Arquiteto', 'perguntada por PO e Arquiteto']);
    await card(ana, google).locator('.askers').getByText(english, { exact: true }).waitFor();
    await card(bruno, google).locator('.askers').getByText(portuguese, { exact: true }).waitFor();
    expect(await ana.page.locator('.queue .card').count()).toBe(1);
    // Only the session author may split; bruno sees who asked, and no control.
    expect(await card(bruno, google).locator('button.split').count()).toBe(0);
    await ana.screenshot('inbox-ask-once-joined');

    const splitLabel = fill(word(dictionary('locale-en.js'), 'queue.askOnce.split'), { agent: 'Arquiteto' });
    await card(ana, google).getByRole('button', { name: splitLabel }).click();
    const [split] = await harness.stack.events.waitForType<{ questionId: string; newQuestionId: string }>(
      OpenqEvent.QuestionSplit,
      1,
    );
    expect(split!.data).toMatchObject({ questionId: google, toolCallId: 'tc-inbox-arq', by: 'ana' });
    const own = split!.data.newQuestionId;

    // Two cards now, on both pages: the first asker's, with no "asked by" left, and the architect's own.
    for (const b of [ana, bruno]) {
      await card(b, own)
        .locator('h3.question', { hasText: 'Do we support sign-in with Google on the login page?' })
        .waitFor();
      await card(b, google).locator('.askers').waitFor({ state: 'detached' });
      expect(await b.page.locator('.queue .card').count()).toBe(2);
    }
    expect(await text(ana, own)).toContain('Arquiteto');
    expect(await card(ana, own).locator('.ask-once').count()).toBe(0);
    const listed = await harness.stack.http('GET', `/projects/${P}/open-questions`, {
      token: harness.stack.token('ana', P, 'viewer'),
    });
    expect(listed.body.items.map((q: { questionId: string }) => q.questionId).sort()).toEqual(
      [google, own].sort(),
    );
    await ana.screenshot('inbox-ask-once-split');
  });

  it('a decided question asked again by an agent that insists shows the decision from before', async () => {
    const stack = harness.stack;
    const offline = await engine().declare(P, { pergunta: 'Should the mobile app work offline?' });
    const answered = await stack.http('POST', `/projects/${P}/open-questions/${offline}/answer`, {
      token: stack.token('ana', P, 'viewer'),
      body: { resposta: 'Yes, read-only offline' },
    });
    expect(answered.status).toBe(200);
    const again = await stack.http('POST', `/internal/projects/${P}/open-questions`, {
      service: true,
      body: TestEngine.body({
        autor: 'arquiteto',
        pergunta: 'Does the mobile app need to work offline?',
        insistir: true,
        motivo: 'The field teams now edit without network',
      }),
    });
    expect(again.status).toBe(201);
    const insisted = again.body.questionId as string;

    const ana = await harness.person('ana', P, 'viewer');
    const bruno = await harness.person('bruno', P, 'viewer', { locale: 'pt-BR' });
    const en = dictionary('locale-en.js');
    const pt = dictionary('locale-pt-BR.js');
    const before = (b: UserBrowser) => card(b, insisted).locator('.precedent');
    await before(ana)
      .getByText(fill(word(en, 'queue.askOnce.decidedBefore'), { resposta: 'Yes, read-only offline' }))
      .waitFor();
    await before(bruno)
      .getByText(fill(word(pt, 'queue.askOnce.decidedBefore'), { resposta: 'Yes, read-only offline' }))
      .waitFor();
    const line = (await before(ana).innerText()).replace(/\s+/g, ' ');
    // The earlier decision's answer and when, then the insisting agent's reason — not the reason alone.
    expect(line).toMatch(/^decided before: Yes, read-only offline \(.+\) · asked again: The field teams/);
    const listed = await stack.http('GET', `/projects/${P}/open-questions?status=all`, {
      token: stack.token('ana', P, 'viewer'),
    });
    const items = listed.body.items as {
      questionId: string;
      answeredAt: string | null;
      precedent?: unknown;
    }[];
    const decidedAt = items.find((q) => q.questionId === offline)!.answeredAt!;
    expect(items.find((q) => q.questionId === insisted)!.precedent).toEqual({
      questionId: offline,
      decisionEventId: answered.body.decisionEventId,
      pergunta: 'Should the mobile app work offline?',
      resposta: 'Yes, read-only offline',
      decidedAt,
    });
    expect(await before(ana).locator('time').getAttribute('datetime')).toBe(decidedAt);
    expect(line).toContain(
      new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' }).format(
        Date.parse(decidedAt),
      ),
    );
    await ana.screenshot('inbox-ask-once-precedent');
  });
});
