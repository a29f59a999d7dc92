import type { Page } from 'playwright-core';
import { AgentEvent } from '@openq/contracts';
import { waitFor } from '@openq/testing';
import { ask, askExisting, publishVerdict, startGate } from '../support/gates';
import { useInboxStack } from '../support/inbox-harness';
import { setPolicies } from '../support/policies';
import { englishLeft as englishLeftOn } from '../support/inbox-words';
import type { UserBrowser } from '@openq/testing/browser';
import { TestEngine, type Declaration } from '../support/engine';

/**
 * Issue #18 the person's language, in real headless Chromium against the whole stack: a browser
 * set to Brazilian Portuguese gets the inbox in Portuguese — every panel filled (questions, a
 * gate parked on a decision, the gate history, answered and withdrawn questions, a frozen repo,
 * errors) — with no English word of the dictionaries left on screen; the header's switch goes back
 * to English in place, and the choice is remembered, server pages included.
 */
const harness = useInboxStack();
const P = 'idioma';
/** Intl's English month names, on top of the dictionaries' words (this spec's dates are in Dec–Jan). */
const MONTHS = ['dec', 'nov', 'jan'];
const englishLeft = (page: Page) => englishLeftOn(page, MONTHS);

/**
 * Controls whose words do not fit (Portuguese is ~30 % longer): cut inside a button, or pushed
 * out of their card or panel.
 */
function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => [
    ...Array.from(
      document.querySelectorAll<HTMLElement>('.panel button, .panel a, .panel input, .panel textarea'),
    )
      .filter((el) => {
        const panel = el.closest('.task, .card, .decision, .panel')!.getBoundingClientRect();
        const box = el.getBoundingClientRect();
        return el.offsetParent !== null && (box.right > panel.right + 0.5 || box.left < panel.left - 0.5);
      })
      .map((el) => `outside its box: ${el.textContent?.trim() || el.tagName}`),
    ...Array.from(document.querySelectorAll<HTMLElement>('button, select, .chip, .tag'))
      .filter((el) => el.offsetParent !== null && el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1)
      .map((el) => `cut: ${el.textContent?.trim() ?? el.tagName}`),
  ]);
}

const declare = (pergunta: string, extra: Declaration = {}): Promise<string> =>
  new TestEngine(harness.stack.baseUrl).declare(P, {
    sessionId: 's-1',
    autor: 'criativo',
    pergunta,
    sugestao: 'Sim — normalizar para maiúsculas antes da consulta',
    afeta: { regras: ['RN-858'], historias: ['H-12'], tarefas: ['T-31'] },
    ...extra,
  });

/** A project with something in every panel. */
async function seed(): Promise<void> {
  const stack = harness.stack;
  // "Every control on": the maintainer's override is a project policy, off by default (§12.1).
  await setPolicies(stack, P, { overrideDeMantenedor: true });
  const ana = stack.token('ana', P, 'viewer');
  await declare('A rota /:codigo aceita códigos em minúsculas?');
  await declare('Qual moeda as faturas usam?', { sessionAuthorId: 'bruno', autor: 'po', sugestao: null });
  const viaChat = await declare('Mostrar os preços com imposto?', { autor: 'arquiteto', sugestao: null });
  const byClick = await declare('Arredondar para centavos?', { autor: 'dev_lead' });
  const dropped = await declare('Ainda precisamos da exportação em CSV?', { autor: 'po', sugestao: null });

  await stack.publishAgentEvent(AgentEvent.QuestionAnswer, P, {
    toolCallId: 'toolu_idioma_arq',
    questionId: viaChat,
    resposta: 'Não, sem imposto',
    viaAgente: 'arquiteto',
    agentSessionId: 'sess-arq-7',
  });
  const click = await stack.http('POST', `/projects/${P}/open-questions/${byClick}/answer`, {
    token: ana,
    body: { aceitarSugestao: true },
  });
  expect(click.status).toBe(200);
  const withdraw = await stack.http('POST', `/projects/${P}/open-questions/${dropped}/withdraw`, {
    token: ana,
    body: { motivo: 'A exportação saiu do escopo' },
  });
  expect(withdraw.status).toBe(200);

  // A gate parked on a decision (its question blocks it), and a round refused (§11.1).
  await startGate(stack, P, 'T-1');
  await publishVerdict(stack, P, 'T-1', 'round-1', [
    ask('functional', 'Um código arquivado responde 404 ou 410?', 'Responder 410'),
  ]);
  await startGate(stack, P, 'T-2');
  await publishVerdict(stack, P, 'T-2', 'round-2', [
    askExisting('functional', '0190a3b8-7c1d-7e2f-8a3b-00000000dead'),
  ]);
  const freeze = await stack.http('POST', `/projects/${P}/pipeline/repos/api/freeze`, {
    token: stack.token('maria', P, 'maintainer'),
    body: { motivo: 'Semana de release: a API-2 espera até sexta' },
  });
  expect(freeze.status).toBe(200);
  await waitFor(
    async () => {
      const r = await stack.http('GET', `/projects/${P}/gate-history?limit=10`, { token: ana });
      const types = (r.body.items as { type: string }[]).map((e) => e.type);
      return types.includes('gate.rescue_parked') && types.includes('gate.verdict_rejected');
    },
    { what: 'the parked gate and the refused round in the gate history' },
  );
}

/** Every panel has loaded what `seed` made. */
async function filled(b: UserBrowser): Promise<void> {
  const page = b.page;
  await page.locator('.waiting .task[data-task-id="T-1"] .task-questions a').waitFor();
  await page.locator('.gate-history .event.rejected').waitFor();
  await page.locator('.gate-history .event.parked').waitFor();
  await page.locator('.history .decision').nth(1).waitFor();
  await page.locator('.withdrawn .decision').waitFor();
  await page.locator('.pipeline .task.frozen[data-repo="api"]').waitFor();
  await page.locator('.queue .card .blocks').waitFor();
  await page.locator('.queue .inert-note').first().waitFor();
}

describe('the inbox in the person’s language', () => {
  beforeAll(seed);

  it('speaks Brazilian Portuguese to a pt-BR browser, with no English word left, and switches back in place', async () => {
    const ana = await harness.person('ana', P, 'developer', {
      locale: 'pt-BR',
      viewport: { width: 1280, height: 800 },
    });
    const page = ana.page;
    await filled(ana);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('pt-BR');
    expect((await page.locator('#open-questions').innerText()).startsWith('Perguntas em aberto')).toBe(true);
    expect((await page.locator('.queue .card .blocks').first().innerText()).replace(/\s+/g, ' ')).toMatch(
      /^Bloqueia: Gate de QA da T-1 \(/,
    );

    // Errors and forms say their words too: an empty answer, an empty withdrawal, the amend form,
    // the readiness check.
    const card = page.locator('.queue .card', {
      hasText: 'A rota /:codigo aceita códigos em minúsculas?',
    });
    await card.getByRole('button', { name: 'Responder', exact: true }).click();
    expect(await card.getByRole('alert').innerText()).toBe(
      'Escreva uma resposta primeiro, ou aceite a sugestão.',
    );
    await card.getByRole('button', { name: 'Retirar…' }).click();
    await card.getByRole('button', { name: 'Retirar pergunta' }).click();
    expect(await card.locator('.withdraw [role="alert"]').innerText()).toBe(
      'Escreva por que você a retira (de 1 a 500 caracteres).',
    );
    await page.locator('.history').getByRole('button', { name: 'Corrigir…' }).click();
    await page.locator('.history').getByLabel('Sua resposta no lugar da do Arquiteto').waitFor();
    await page.getByRole('button', { name: 'Estou pronto' }).click();
    await page.locator('.readiness .checked').getByText('“Estou pronto” segue adiante').waitFor();
    expect(await page.locator('.readiness .notice').innerText()).toContain('continuam em aberto');
    // Dates by locale: "há 1 minuto" / "agora mesmo", "1 de dez. de 2026" in the title.
    expect(await page.locator('.history time').first().innerText()).toMatch(
      /^(agora mesmo|há \d+ minutos?)$/,
    );
    expect(await page.locator('.history time').first().getAttribute('title')).toMatch(/ de \w+\.? de \d{4}/);

    expect(await englishLeft(page)).toEqual([]);
    expect(await overflowing(page)).toEqual([]);
    await ana.screenshot('inbox-pt-BR-desktop');

    // Back to English from the header: the same page (no reload), every panel in English.
    await page.evaluate(() => Object.assign(window, { samePage: true }));
    await page.getByLabel('Idioma').selectOption('en');
    await page.locator('#open-questions', { hasText: 'Open questions' }).waitFor();
    expect(await page.evaluate(() => (window as unknown as { samePage?: boolean }).samePage)).toBe(true);
    expect(await page.evaluate(() => [document.documentElement.lang, document.title])).toEqual([
      'en',
      'openq — Inbox',
    ]);
    for (const words of ['Waiting for you', 'Gate history', 'Frozen repos', 'Answered', 'Withdrawn'])
      await page.getByRole('heading', { name: words }).waitFor();
    expect((await page.locator('.queue .card .blocks').first().innerText()).replace(/\s+/g, ' ')).toMatch(
      /^Blocks: QA gate on T-1 \(/,
    );
    // What was on screen follows too: the readiness check, the open forms.
    await page.locator('.readiness .checked').getByText("“I'm ready” goes ahead").waitFor();
    await page.locator('.history').getByLabel('Your answer instead of Arquiteto’s').waitFor();
    expect(await page.locator('.history time').first().innerText()).toMatch(/^(just now|\d+ minutes? ago)$/);

    // Remembered: a reload stays in English in this pt-BR browser, and so do the server's pages.
    await page.reload();
    await page.locator('#open-questions', { hasText: 'Open questions' }).waitFor();
    const shell = await page.evaluate(async () => (await fetch('/', { credentials: 'same-origin' })).text());
    expect(shell).toContain('<html lang="en">');
    expect(shell).toContain('Loading your inbox…');
  });

  it('fits Portuguese on a phone (390×844), for a maintainer with every control on', async () => {
    const maria = await harness.person('maria', P, 'maintainer', {
      locale: 'pt-BR',
      viewport: { width: 390, height: 844 },
    });
    await filled(maria);
    await maria.page.locator('.pipeline').getByRole('button', { name: 'Descongelar' }).waitFor();
    await maria.page.locator('.waiting').getByRole('button', { name: 'Retomar sem a resposta…' }).click();
    await maria.page
      .locator('.waiting')
      .getByLabel(/Por que retomar sem a resposta\?/)
      .waitFor();
    expect(await englishLeft(maria.page)).toEqual([]);
    expect(await overflowing(maria.page)).toEqual([]);
    const width = await maria.page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    await maria.screenshot('inbox-pt-BR-mobile');
  });

  it('says the sign-in page in Portuguese to a pt-BR browser without a sign-in', async () => {
    const visitor = await harness.open(null, P, 'viewer', { locale: 'pt-BR' });
    await visitor.page.goto(`${harness.stack.baseUrl}/`);
    await visitor.page.getByRole('heading', { name: 'Entrar no openq' }).waitFor();
    expect(await visitor.page.evaluate(() => document.documentElement.lang)).toBe('pt-BR');
    expect(await visitor.page.locator('main').innerText()).toContain('Você não está conectado.');
    expect(await englishLeft(visitor.page)).toEqual([]);
  });
});
