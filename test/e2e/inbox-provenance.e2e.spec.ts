import { useInboxStack } from '../support/inbox-harness';
import { TestEngine } from '../support/engine';

/**
 * The audit of an agent's answer in the web inbox (ADR 0258 §4, SPEC §11.2): a decision an agent
 * recorded from the chat says which agent and in which of its sessions, in real headless Chromium
 * against the whole stack.
 */
const harness = useInboxStack();

const declare = (project: string, pergunta: string, sugestao: string | null = null): Promise<string> =>
  new TestEngine(harness.stack.baseUrl).declare(project, {
    sessionId: 's-42',
    pergunta,
    sugestao,
    afeta: { historias: ['H-12'] },
  });

async function answerAsAgent(
  project: string,
  questionId: string,
  body: Record<string, unknown>,
): Promise<void> {
  const r = await harness.stack.http(
    'POST',
    `/internal/projects/${project}/open-questions/${questionId}/answer`,
    {
      service: true,
      body,
    },
  );
  expect(r).toMatchObject({ status: 200, body: { status: 'answered' } });
}

describe("a decision's provenance in the history", () => {
  it('shows "via <agent>, in session <id>" for an agent that gave its session, live, and only the agent otherwise', async () => {
    const P = 'provenance';
    const withSession = await declare(P, 'Keep the legacy /v1 routes for one more release?');
    const withoutSession = await declare(P, 'Which currency do invoices use?', 'BRL');
    const byClick = await declare(P, 'Round half up or half even?');
    // answered before the page opens: the history loads it
    await answerAsAgent(P, withoutSession, { viaAgente: 'po' });

    const bruno = await harness.person('bruno', P, 'viewer');
    const decision = (questionId: string) =>
      bruno.page.locator(`.history .decision[data-question-id="${questionId}"] .meta`);
    const meta = async (questionId: string) => (await decision(questionId).innerText()).replace(/\s+/g, ' ');
    await decision(withoutSession).waitFor();

    // answered while the page is open: the live stream brings it in
    await answerAsAgent(P, withSession, {
      viaAgente: 'arquiteto',
      resposta: 'Yes, until 2.4',
      agentSessionId: 'sess-arq-42',
    });
    await decision(withSession).waitFor();
    const click = await harness.stack.http('POST', `/projects/${P}/open-questions/${byClick}/answer`, {
      token: harness.stack.token('ana', P, 'viewer'),
      body: { resposta: 'Half even' },
    });
    expect(click.status).toBe(200);
    await decision(byClick).waitFor();

    expect(await meta(withSession)).toMatch(
      /^Answered by ana via Arquiteto, in session sess-arq-42 \(from the chat\) · /,
    );
    expect(await decision(withSession).locator('code.session').innerText()).toBe('sess-arq-42');
    expect(await meta(withoutSession)).toMatch(/^Answered by ana via PO \(from the chat\) · /);
    expect(await meta(withoutSession)).not.toContain('session');
    expect(await meta(byClick)).toMatch(/^Answered by ana by click · /);
    await bruno.screenshot('inbox-decision-provenance');
  });
});
