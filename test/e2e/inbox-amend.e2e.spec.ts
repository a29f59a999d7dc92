import { AgentEvent, OpenqEvent } from '@openq/contracts';
import { waitFor } from '@openq/testing';
import { useInboxStack } from '../support/inbox-harness';
import { TestEngine } from '../support/engine';

/**
 * SPEC §11.5 in the web inbox, in real headless Chromium against the whole stack: an agent
 * recorded an answer from the chat; the session author replaces it from the answered history
 * ("Amend…"), the card shows the new decision and what it replaced, live for others; a decision
 * made by click has no Amend control, nor has anyone but the session author.
 */
const harness = useInboxStack();

const declare = (project: string, pergunta: string): Promise<string> =>
  new TestEngine(harness.stack.baseUrl).declare(project, {
    sessionId: 's-9',
    pergunta,
    afeta: { tarefas: ['T-7'] },
  });

describe("amending an agent's answer in the inbox", () => {
  it('the session author replaces the decision from the history; the card says what it replaced, live for others', async () => {
    const P = 'inbox-amend';
    const misread = await declare(P, 'Show prices with VAT?');
    const clicked = await declare(P, 'Round to cents?');
    await harness.stack.publishAgentEvent(AgentEvent.QuestionAnswer, P, {
      toolCallId: 'toolu_amend_po',
      questionId: misread,
      resposta: 'No, without VAT',
      viaAgente: 'po',
    });
    const answered = await harness.stack.http('POST', `/projects/${P}/open-questions/${clicked}/answer`, {
      token: harness.stack.token('ana', P, 'viewer'),
      body: { resposta: 'Yes, to cents' },
    });
    expect(answered.status).toBe(200);
    await waitFor(
      () =>
        harness.stack.events.ofType(OpenqEvent.QuestionAnswered).filter((e) => e.projectId === P).length ===
        2,
      { what: 'both answers published' },
    );

    const bruno = await harness.person('bruno', P, 'viewer');
    const ana = await harness.person('ana', P, 'viewer');
    const decision = (b: typeof ana, id: string) =>
      b.page.locator(`.history .decision[data-question-id="${id}"]`);
    await decision(ana, misread).getByText('No, without VAT').waitFor();
    await decision(bruno, misread).waitFor();
    // Only the session author, and only on the agent's decision.
    expect(await decision(bruno, misread).getByRole('button', { name: 'Amend…' }).count()).toBe(0);
    expect(await decision(ana, clicked).getByRole('button', { name: 'Amend…' }).count()).toBe(0);

    await decision(ana, misread).getByRole('button', { name: 'Amend…' }).click();
    const input = decision(ana, misread).getByLabel('Your answer instead of PO’s');
    await input.waitFor();
    // No answer: said on the card, nothing sent.
    await decision(ana, misread).getByRole('button', { name: 'Replace decision' }).click();
    await decision(ana, misread).getByRole('alert').getByText('Write your answer').waitFor();
    await input.fill('Yes, prices include VAT');
    await ana.screenshot('inbox-amend-form');
    await decision(ana, misread).getByRole('button', { name: 'Replace decision' }).click();

    await decision(ana, misread).locator('.amended').waitFor();
    const text = (await decision(ana, misread).innerText()).replace(/\s+/g, ' ');
    expect(text).toContain('Yes, prices include VAT');
    expect(text).toContain('Amended by ana');
    expect(text).toContain('PO had recorded “No, without VAT” from the chat.');
    expect(text).not.toContain('by click');
    expect(await decision(ana, misread).getByRole('button', { name: 'Amend…' }).count()).toBe(0);
    await waitFor(
      () => harness.stack.events.ofType(OpenqEvent.DecisionSuperseded).some((e) => e.projectId === P),
      { what: 'decision.superseded published' },
    );

    // Bruno's page hears it on the live stream.
    await decision(bruno, misread).locator('.amended').waitFor();
    expect(await decision(bruno, misread).innerText()).toContain('Yes, prices include VAT');
    await ana.screenshot('inbox-amended');
    await ana.page.setViewportSize({ width: 390, height: 844 });
    await decision(ana, misread).scrollIntoViewIfNeeded();
    await ana.screenshot('inbox-amended-mobile', { fullPage: false });
  });
});
