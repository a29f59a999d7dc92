import { AgentEvent, OpenqEvent, type AnalyticsReply, type AnalyticsRow } from '@openq/contracts';
import { recomputeAnalytics, waitFor } from '@openq/testing';
import { replayContextReadModels } from '../../services/context/src/context/projections/replay';

import { TestEngine } from '../support/engine';
import { EXEC_AUTHOR, ask, askExisting, publishVerdict, startGate } from '../support/gates';
import { useInboxStack } from '../support/inbox-harness';

/*
 * SPEC §12.4 question quality through the whole stack (gateway, questions, gates, context, the
 * notifier the inbox asks): a known history — questions of four roles answered by click and by
 * agents, suggestions accepted, an amendment, a withdrawal, two gates parked on a decision and
 * resumed — then every figure of `/analytics` (by role and by week) is held against the same
 * figures recomputed from the published events, the CSV against the JSON, the 7-day gauges against
 * the rows, and `openq replay context` must give the same rows. Then the page, in both languages,
 * at 1280 and 390 px.
 */
const harness = useInboxStack();
const P = 'quality';
const as = (user = EXEC_AUTHOR, role: 'viewer' | 'developer' = 'viewer') =>
  harness.stack.token(user, P, role);
const today = () => new Date().toISOString().slice(0, 10);

async function seed(): Promise<void> {
  const { stack } = harness;
  const engine = new TestEngine(stack.baseUrl);
  const click = async (questionId: string, body: unknown) =>
    expect(
      (await stack.http('POST', `/projects/${P}/open-questions/${questionId}/answer`, { token: as(), body }))
        .status,
    ).toBe(200);
  const byAgent = async (questionId: string, viaAgente: string, resposta?: string) =>
    expect(
      (
        await stack.http('POST', `/internal/projects/${P}/open-questions/${questionId}/answer`, {
          service: true,
          body: { viaAgente, ...(resposta ? { resposta } : {}) },
        })
      ).status,
    ).toBe(200);

  const accepted = await engine.declare(P, { autor: 'po', pergunta: 'Prices in BRL?', sugestao: 'Yes, BRL' });
  const amended = await engine.declare(P, { autor: 'po', pergunta: 'Show VAT?' });
  const typed = await engine.declare(P, {
    autor: 'arquiteto',
    pergunta: 'One queue or two?',
    sugestao: 'One',
  });
  const withdrawn = await engine.declare(P, { autor: 'criativo', pergunta: 'Dark mode first?' });
  await engine.declare(P, { autor: 'dev_lead', pergunta: 'Node 20 or 22?' });
  const agentTook = await engine.declare(P, {
    autor: 'dev_lead',
    pergunta: 'Pin exact?',
    sugestao: 'Exact pins',
  });
  const cited = await engine.declare(P, { autor: 'arquiteto', pergunta: 'Retry webhooks?', sugestao: 'Yes' });

  await click(accepted, { aceitarSugestao: true });
  await byAgent(amended, 'po', 'No VAT');
  await click(typed, { resposta: 'Two queues' });
  await byAgent(agentTook, 'dev_lead');
  expect(
    (
      await stack.http('POST', `/projects/${P}/open-questions/${withdrawn}/withdraw`, {
        token: as(),
        body: { motivo: 'Out of scope' },
      })
    ).status,
  ).toBe(200);
  expect(
    (
      await stack.http('POST', `/projects/${P}/open-questions/${amended}/amend`, {
        token: as(),
        body: { resposta: 'Yes, with VAT' },
      })
    ).status,
  ).toBe(200);

  // Two gates parked on a decision: QA's own question (answered by click), and one citing the
  // architect's question (answered by an agent); both resume on the answer.
  await startGate(stack, P, 'T-1');
  await startGate(stack, P, 'T-2');
  await publishVerdict(stack, P, 'T-1', 'r-1', [ask('functional', 'Round half up?', 'Half up')]);
  await publishVerdict(stack, P, 'T-2', 'r-2', [askExisting('security', cited)]);
  const parkedOn = async (taskId: string) =>
    waitFor(
      () =>
        stack.events
          .ofType<{ taskId: string; questionIds: string[] }>(OpenqEvent.GateRescueParked)
          .find((e) => e.projectId === P && e.data.taskId === taskId)?.data.questionIds[0],
      { what: `${taskId} parked` },
    );
  await click(await parkedOn('T-1'), { aceitarSugestao: true });
  await parkedOn('T-2');
  await stack.publishAgentEvent(AgentEvent.QuestionAnswer, P, {
    toolCallId: 'toolu_quality_1',
    questionId: cited,
    resposta: 'Yes, three times',
    viaAgente: 'arquiteto',
  });
  await waitFor(
    () => stack.events.ofType(OpenqEvent.GateResumed).filter((e) => e.projectId === P).length === 2,
    { what: 'both gates resumed' },
  );
}

async function analytics(query: string, token = as()): Promise<{ status: number; body: AnalyticsReply }> {
  return harness.stack.http('GET', `/projects/${P}/analytics${query}`, { token });
}

/** Every figure equal; the minutes to the hundredth (SQL rounds numerics, the recount floats). */
function expectSameRows(actual: AnalyticsRow[], expected: AnalyticsRow[]): void {
  expect(actual.map((r) => r.key)).toEqual(expected.map((r) => r.key));
  actual.forEach((row, i) => {
    const want = expected[i]!;
    for (const field of Object.keys(want) as (keyof AnalyticsRow)[]) {
      const [got, wanted] = [row[field], want[field]];
      if (typeof wanted === 'number' && (field.endsWith('P50') || field.endsWith('P90')))
        expect({ field, key: row.key, off: Math.abs((got as number) - wanted) <= 0.01 }).toEqual({
          field,
          key: row.key,
          off: true,
        });
      else expect({ field, key: row.key, value: got }).toEqual({ field, key: row.key, value: wanted });
    }
  });
}

describe('question quality (SPEC §12.4)', () => {
  it('every figure, by role and by week, is what the events say; CSV, gauges and replay agree', async () => {
    await seed();
    const { stack } = harness;
    const all = () => stack.events.events;
    const window = { from: '', to: today() };

    // The read model catches up with the events (its consumers run apart): then every figure matches.
    let byRole: AnalyticsReply | undefined;
    await waitFor(
      async () => {
        const reply = await analytics('?by=role');
        if (reply.status !== 200) return false;
        byRole = reply.body;
        window.from = reply.body.from;
        const expected = recomputeAnalytics(all(), P, reply.body, 'role');
        return JSON.stringify(reply.body.rows.map(countsOf)) === JSON.stringify(expected.map(countsOf));
      },
      { what: 'the analytics to count every event', timeoutMs: 30_000 },
    );
    expectSameRows(byRole!.rows, recomputeAnalytics(all(), P, window, 'role'));
    expect(byRole!.to).toBe(today());
    // The history seeded, in words: who asked what and how it ended.
    const row = (key: string) => byRole!.rows.find((r) => r.key === key);
    expect(byRole!.rows.map((r) => r.key)).toEqual(['criativo', 'po', 'arquiteto', 'dev_lead', 'qa-agent']);
    expect(row('po')).toMatchObject({
      asked: 2,
      answeredByClick: 1,
      answeredByAgent: 1,
      suggestionAccepted: 1,
      amended: 1,
    });
    expect(row('arquiteto')).toMatchObject({
      asked: 2,
      answeredByClick: 1,
      answeredByAgent: 1,
      suggestionAccepted: 0,
    });
    expect(row('criativo')).toMatchObject({
      asked: 1,
      withdrawn: 1,
      answerMinutesP50: null,
      parkedMinutesP50: null,
    });
    expect(row('dev_lead')).toMatchObject({ asked: 2, answeredByAgent: 1, suggestionAccepted: 1 });
    expect(row('qa-agent')).toMatchObject({ asked: 1, answeredByClick: 1, suggestionAccepted: 1 });
    expect(row('qa-agent')!.parkedMinutesP50).not.toBeNull();
    expect(row('arquiteto')!.parkedMinutesP50).not.toBeNull();

    const byWeek = await analytics('?by=week');
    expect(byWeek.status).toBe(200);
    expectSameRows(byWeek.body.rows, recomputeAnalytics(all(), P, byWeek.body, 'week'));
    // 84 days touch 13 weeks (Monday to Sunday), or 12 when they start on a Monday (run on a Sunday).
    const startsOnMonday = new Date(`${byWeek.body.from}T00:00:00Z`).getUTCDay() === 1;
    expect(byWeek.body.rows).toHaveLength(startsOnMonday ? 12 : 13);
    expect(byWeek.body.rows.at(-1)).toMatchObject({ asked: 8, withdrawn: 1, amended: 1 });

    // The CSV is the same rows.
    const csv = await fetch(`${stack.baseUrl}/projects/${P}/analytics.csv?by=role`, {
      headers: { authorization: `Bearer ${as()}` },
    });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const [header, ...lines] = (await csv.text()).trimEnd().split('\r\n');
    expect(header).toBe(
      'key,asked,joined,precedents,withdrawn,answeredByClick,answeredByAgent,suggestionAccepted,amended,answerMinutesP50,answerMinutesP90,parkedMinutesP50',
    );
    expect(lines).toEqual(
      byRole!.rows.map((r) =>
        Object.values(r)
          .map((v) => (v === null ? '' : String(v)))
          .join(','),
      ),
    );

    // The 7-day gauges per asking role say the same counts.
    const metrics = await (await fetch(`${metricsUrl()}/metrics`)).text();
    for (const r of byRole!.rows) {
      expect(metrics).toContain(
        `openq_question_quality_7d{role="${r.key}",figure="asked",service="context"} ${r.asked}`,
      );
      expect(metrics).toContain(
        `openq_question_quality_7d{role="${r.key}",figure="answered_by_click",service="context"} ${r.answeredByClick}`,
      );
    }

    // Rebuilt from the streams, the rows are the same.
    const replayed = await replayContextReadModels(stack.service('context').dataSource, stack.nc);
    expect(replayed.types[OpenqEvent.QuestionAnswered].applied).toBe(6);
    expect(replayed.types[OpenqEvent.GateResumed].applied).toBe(2);
    expect((await analytics('?by=role')).body).toEqual(byRole);
    expect((await analytics('?by=week')).body).toEqual(byWeek.body);
  });

  it('refuses a malformed or impossible window, and a caller without a role', async () => {
    const cases: [string, number, string][] = [
      ['?from=2026-13-01', 400, 'parametro_invalido'],
      ['?to=yesterday', 400, 'parametro_invalido'],
      ['?by=month', 400, 'parametro_invalido'],
      ['?from=2026-11-30&to=2026-11-01', 400, 'periodo_invalido'],
      ['?from=2025-01-01&to=2026-11-30', 400, 'periodo_invalido'],
    ];
    for (const [query, status, reason] of cases) {
      const reply = await analytics(query);
      expect({
        query,
        status: reply.status,
        reason: reply.body && (reply.body as unknown as { reason: string }).reason,
      }).toEqual({ query, status, reason });
      const csv = await harness.stack.http('GET', `/projects/${P}/analytics.csv${query}`, { token: as() });
      expect({ query, status: csv.status, reason: csv.body.reason }).toEqual({ query, status, reason });
    }
    const outsider = harness.stack.token('eve', 'elsewhere', 'owner');
    expect((await analytics('', outsider)).body).toMatchObject({ reason: 'sem_papel_no_projeto' });
    const fixed = await analytics('?from=2026-11-02&to=2026-11-15&by=week');
    expect(fixed.body).toEqual({
      from: '2026-11-02',
      to: '2026-11-15',
      rows: [expect.objectContaining({ key: '2026-11-02' }), expect.objectContaining({ key: '2026-11-09' })],
    });
  });
});

describe('the question-quality page', () => {
  it('reads at a glance in both languages, at 1280 and 390 px, with the numbers as tables', async () => {
    const pages = [
      {
        locale: 'en-US',
        link: 'Quality',
        title: `Question quality on ${P}`,
        figures: 'Every figure, per agent',
        po: 'PO',
      },
      {
        locale: 'pt-BR',
        link: 'Qualidade',
        title: `Qualidade das perguntas em ${P}`,
        figures: 'Todos os números, por agente',
        po: 'PO',
      },
    ];
    const byRole = (await analytics('?by=role')).body.rows;
    for (const words of pages) {
      for (const width of [1280, 390]) {
        const b = await harness.open(EXEC_AUTHOR, P, 'viewer', {
          locale: words.locale,
          viewport: { width, height: 900 },
        });
        await b.inbox(harness.stack.baseUrl, P);
        await b.page.getByRole('link', { name: words.link }).click();
        await b.page.getByRole('heading', { level: 1, name: words.title }).waitFor();
        await b.page.locator('.chart-box canvas').nth(2).waitFor();
        expect(new URL(b.page.url()).searchParams.get('view')).toBe('analytics');
        // Three charts drawn (Chart.js sized each canvas), each with a table saying the same.
        const sizes = await b.page
          .locator('.chart-box canvas')
          .evaluateAll((cs) =>
            cs.map((c) => (c as HTMLCanvasElement).width > 0 && (c as HTMLCanvasElement).height > 0),
          );
        expect(sizes).toEqual([true, true, true]);
        expect(await b.page.locator('.chart-panel table caption').count()).toBe(3);
        // The whole table: one row per agent, the PO's figures as the API says them.
        const table = b.page.getByRole('table', { name: words.figures });
        expect(await table.locator('tbody tr').count()).toBe(byRole.length);
        const po = byRole.find((r) => r.key === 'po')!;
        const poRow = table.locator('tbody tr', {
          has: b.page.getByRole('rowheader', { name: words.po, exact: true }),
        });
        const cells = await poRow.locator('td').allInnerTexts();
        expect(cells.slice(0, 8)).toEqual(
          [
            po.asked,
            po.joined,
            po.precedents,
            po.withdrawn,
            po.answeredByClick,
            po.answeredByAgent,
            po.suggestionAccepted,
            po.amended,
          ].map(String),
        );
        await b.screenshot(`analytics-${words.locale}-${width}`);
        // Nothing wider than the phone but the table's own scroller.
        const overflow = await b.page.evaluate(
          () => document.documentElement.scrollWidth - window.innerWidth,
        );
        expect({ width, overflow }).toEqual({ width, overflow: 0 });
        await b.close();
      }
    }
  });
});

function countsOf(r: AnalyticsRow): unknown[] {
  return [
    r.key,
    r.asked,
    r.answeredByClick,
    r.answeredByAgent,
    r.suggestionAccepted,
    r.amended,
    r.withdrawn,
    r.parkedMinutesP50 === null,
  ];
}

function metricsUrl(): string {
  const address = harness.stack.service('context').app.getHttpServer().address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}
