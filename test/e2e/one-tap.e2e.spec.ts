import { DEV_LINK_SECRET, mintOneTapLink, type OneTapAction } from '@openq/platform';
import { waitFor } from '@openq/testing';
import { ask, EXEC_AUTHOR, gatesOf, publishVerdict, startGate } from '../support/gates';
import { Stack } from '../support/stack';

/**
 * Issue #17 / SPEC §11.6 one-tap links over the whole stack (questions, gates, context, gateway on
 * real NATS and PostgreSQL): a QA verdict parks the gate on a question; a link minted for the
 * session author shows a confirm page on GET and answers nothing; POST answers through the inbox's
 * answer path and the gate resumes; the link then says `link_ja_usado`; a non-author's link,
 * an expired one and a tampered one are refused with their reasons.
 */
let stack: Stack;
beforeAll(async () => {
  stack = await Stack.start();
});
afterAll(async () => {
  await stack?.stop();
});

const P = 'one-tap';
const HTML = { accept: 'text/html,application/xhtml+xml' };

async function parkOn(taskId: string, pergunta: string, sugestao: string): Promise<string> {
  await startGate(stack, P, taskId);
  await publishVerdict(stack, P, taskId, `round-${taskId}`, [ask('functional', pergunta, sugestao)]);
  const qa = await waitFor(
    async () => {
      const r = await gatesOf(stack, P, taskId);
      const gate =
        r.status === 200
          ? (r.body as { gate: string; state: string; questionIds: string[] }[]).find((g) => g.gate === 'qa')
          : undefined;
      return gate?.state === 'parked' ? gate : null;
    },
    { what: `the QA gate of ${taskId} to park` },
  );
  return qa.questionIds[0]!;
}

const mint = (questionId: string, userId = EXEC_AUTHOR, action: OneTapAction = 'accept', expiresAt?: Date) =>
  mintOneTapLink(
    { projectId: P, questionId, userId, action, ...(expiresAt ? { expiresAt } : {}) },
    { secret: DEV_LINK_SECRET },
  );

async function questionStatus(questionId: string): Promise<string> {
  const r = await stack.http('GET', `/projects/${P}/open-questions?status=all&limit=50`, {
    token: stack.token('viewer-1', P, 'viewer'),
  });
  return (r.body.items as { questionId: string; status: string }[]).find((q) => q.questionId === questionId)!
    .status;
}

/** GET the link as a program: the question and a fresh `confirm` for the POST. */
async function confirmOf(token: string): Promise<string> {
  const r = await stack.http('GET', `/l/${token}`);
  expect(r.status).toBe(200);
  return r.body.confirm as string;
}

describe('one-tap links', () => {
  it('GET confirms and answers nothing; POST answers, the gate resumes; a second use says link_ja_usado', async () => {
    const questionId = await parkOn('T-101', 'Round prices half up or half even?', 'Half up');
    const token = await mint(questionId);

    // A mail scanner's prefetch, twice: a page with one button, nothing answered.
    for (let i = 0; i < 2; i++) {
      const page = await fetch(`${stack.baseUrl}/l/${token}`, { headers: HTML });
      expect(page.status).toBe(200);
      expect(page.headers.get('referrer-policy')).toBe('no-referrer');
      expect(page.headers.get('cache-control')).toBe('no-store');
      expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      const html = await page.text();
      expect(html).toContain('Round prices half up or half even?');
      expect(html).toContain('Half up');
      expect(html).toContain('QA gate on T-101');
      expect(html).toMatch(
        /<form method="post"[^>]*>[\s\S]*name="confirm"[\s\S]*Accept the suggestion<\/button>/,
      );
    }
    const json = await stack.http('GET', `/l/${token}`);
    expect(json.body).toMatchObject({
      questionId,
      pergunta: 'Round prices half up or half even?',
      canAnswer: true,
    });
    expect(await questionStatus(questionId)).toBe('open');
    expect(
      stack.events
        .ofType('question.answered')
        .filter((e) => (e.data as { questionId: string }).questionId === questionId),
    ).toEqual([]);

    // Without the confirm page's form token, or from another site: refused, nothing used up.
    const bare = await stack.http('POST', `/l/${token}`, { body: {} });
    expect(bare).toMatchObject({ status: 403, body: { reason: 'confirmacao_invalida' } });
    const confirm = await confirmOf(token);
    const crossSite = await stack.http('POST', `/l/${token}`, {
      body: { confirm },
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(crossSite).toMatchObject({ status: 403, body: { reason: 'origem_nao_confiavel' } });
    // Issue #27: a foreign Origin (or, without one, a foreign Referer) with a valid confirm field
    // is refused too — also from a client that sends no Sec-Fetch-Site — and uses nothing up.
    const foreignHeaders: Record<string, string>[] = [
      { origin: 'http://evil.example' },
      { origin: 'null' },
      { referer: 'http://evil.example/phish.html' },
      { origin: 'http://evil.example', 'sec-fetch-site': 'same-origin' },
    ];
    for (const headers of foreignHeaders) {
      const foreign = await stack.http('POST', `/l/${token}`, { body: { confirm }, headers });
      expect({ headers, status: foreign.status, reason: foreign.body.reason }).toEqual({
        headers,
        status: 403,
        reason: 'origem_nao_confiavel',
      });
    }
    expect(await questionStatus(questionId)).toBe('open');

    // The button: a form POST from the page, answered as the inbox's click would be.
    const answered = await fetch(`${stack.baseUrl}/l/${token}`, {
      method: 'POST',
      headers: {
        ...HTML,
        'content-type': 'application/x-www-form-urlencoded',
        'sec-fetch-site': 'same-origin',
        // What a browser sends for the confirm page's form (its Referrer-Policy is no-referrer).
        origin: 'null',
      },
      body: `confirm=${encodeURIComponent(confirm)}`,
    });
    expect(answered.status).toBe(200);
    const done = await answered.text();
    expect(done).toContain('Answer recorded');
    expect(done).toContain('QA gate on T-101 resumes with your decision.');
    const events = await stack.events.waitForType<{
      questionId: string;
      respondidaPor: string;
      resposta: string;
    }>('question.answered');
    expect(events.filter((e) => e.data.questionId === questionId)).toEqual([
      expect.objectContaining({
        data: expect.objectContaining({ respondidaPor: EXEC_AUTHOR, resposta: 'Half up' }),
      }),
    ]);
    await waitFor(
      async () => {
        const r = await gatesOf(stack, P, 'T-101');
        return (
          (r.body as { gate: string; state: string }[]).find((g) => g.gate === 'qa')?.state === 'running'
        );
      },
      { what: 'the QA gate of T-101 to resume' },
    );
    const resumed = await stack.events.waitForType<{ taskId: string; trigger: string }>('gate.resumed');
    expect(resumed.filter((e) => e.data.taskId === 'T-101').map((e) => e.data.trigger)).toEqual(['answer']);

    // Second use, as JSON and as a page; the GET says so too.
    const again = await stack.http('POST', `/l/${token}`, { body: { confirm } });
    expect(again).toMatchObject({ status: 409, body: { statusCode: 409, reason: 'link_ja_usado' } });
    // openq's own origins pass the origin check (and meet the link's state): the public one
    // (OPENQ_PUBLIC_URL, here its default) and the one the request was sent to.
    for (const origin of ['http://localhost:3000', stack.baseUrl]) {
      const ours = await stack.http('POST', `/l/${token}`, { body: { confirm }, headers: { origin } });
      expect({ origin, reason: ours.body.reason }).toEqual({ origin, reason: 'link_ja_usado' });
    }
    const againPage = await fetch(`${stack.baseUrl}/l/${token}`, {
      method: 'POST',
      headers: { ...HTML, 'content-type': 'application/x-www-form-urlencoded' },
      body: `confirm=${encodeURIComponent(confirm)}`,
    });
    expect(againPage.status).toBe(409);
    expect(await againPage.text()).toContain('This link was already used');
    expect(await stack.http('GET', `/l/${token}`)).toMatchObject({
      status: 409,
      body: { reason: 'link_ja_usado' },
    });
    // Still exactly one answer.
    expect(
      stack.events
        .ofType<{ questionId: string }>('question.answered')
        .filter((e) => e.data.questionId === questionId),
    ).toHaveLength(1);

    // Another link of the same author for the answered question: pergunta_ja_respondida.
    const late = await mint(questionId);
    const latePage = await fetch(`${stack.baseUrl}/l/${late}`, { headers: HTML });
    expect(latePage.status).toBe(409);
    expect(await latePage.text()).toContain('Already answered');
  });

  it('refuses a non-author (so_o_autor_da_sessao), an expired link (link_expirado) and a tampered one', async () => {
    const questionId = await parkOn('T-102', 'Keep the audit log 90 or 365 days?', '365 days');

    const bruno = await mint(questionId, 'bruno');
    const view = await stack.http('GET', `/l/${bruno}`);
    expect(view.body).toMatchObject({ canAnswer: false });
    const page = await (await fetch(`${stack.baseUrl}/l/${bruno}`, { headers: HTML })).text();
    expect(page).not.toContain('<form');
    const refused = await stack.http('POST', `/l/${bruno}`, { body: { confirm: view.body.confirm } });
    expect(refused).toMatchObject({ status: 403, body: { reason: 'so_o_autor_da_sessao' } });
    // A refusal does not use the link up: it says the same again, not link_ja_usado.
    expect(await stack.http('POST', `/l/${bruno}`, { body: { confirm: view.body.confirm } })).toMatchObject({
      status: 403,
      body: { reason: 'so_o_autor_da_sessao' },
    });

    const expired = await mint(questionId, EXEC_AUTHOR, 'accept', new Date(Date.now() - 60_000));
    expect(await stack.http('GET', `/l/${expired}`)).toMatchObject({
      status: 410,
      body: { reason: 'link_expirado' },
    });
    expect(await stack.http('POST', `/l/${expired}`, { body: {} })).toMatchObject({
      status: 410,
      body: { reason: 'link_expirado' },
    });
    const expiredPage = await fetch(`${stack.baseUrl}/l/${expired}`, { headers: HTML });
    expect(expiredPage.status).toBe(410);
    expect(await expiredPage.text()).toContain('This link has expired');

    const good = await mint(questionId);
    const [h, payload, sig] = good.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...claims, u: 'mallory' })).toString('base64url')}.${sig}`;
    for (const bad of [tampered, `${good}x`, 'nothing-like-a-token']) {
      const r = await stack.http('POST', `/l/${bad}`, { body: {} });
      expect(r.status).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
      expect(r.body.reason).toBe('link_invalido');
    }
    // Nothing of this answered the question.
    expect(await questionStatus(questionId)).toBe('open');

    // An "open" link goes to the card in the inbox and answers nothing.
    const open = await mint(questionId, EXEC_AUTHOR, 'open');
    const redirect = await fetch(`${stack.baseUrl}/l/${open}`, { redirect: 'manual', headers: HTML });
    expect(redirect.status).toBe(303);
    expect(redirect.headers.get('location')).toBe(`/?project=${P}#q-${questionId}`);
    expect(await questionStatus(questionId)).toBe('open');
  });

  it('answers once when the same link is POSTed many times at once', async () => {
    const questionId = await parkOn('T-103', 'Ship the CSV export behind a flag?', 'Yes, behind a flag');
    const token = await mint(questionId);
    const confirm = await confirmOf(token);
    const results = await Promise.all(
      Array.from({ length: 8 }, () => stack.http('POST', `/l/${token}`, { body: { confirm } })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.reason === 'link_ja_usado')).toBe(
      true,
    );
    await stack.events.waitForType('question.answered', 1);
    await waitFor(async () => (await questionStatus(questionId)) === 'answered', { what: 'the answer' });
  });
});
