import type { OpenQuestionView, QuestionListReply } from '@openq/contracts';
import { DEV_JWT_SECRET } from '@openq/platform';
import { SseClient } from '@openq/testing';
import { signJwt } from '../../services/gateway/src/testing/sign-jwt';
import { SEED_PROJECTS, seedInbox, type InboxSeed, type SeededQuestion } from '../support/inbox-seed';
import { Stack } from '../support/stack';

/**
 * Issue #18 triage over the API, on the shared seed (200 questions over 3 projects, through the
 * real stack): the filters and the full-text search of the project list, the cross-project list
 * `GET /me/open-questions` and its live stream `GET /me/stream`, and their refusals.
 */
let stack: Stack;
let seed: InboxSeed;

beforeAll(async () => {
  stack = await Stack.start({ services: ['questions', 'gates'] });
  seed = await seedInbox(stack);
}, 240_000);

afterAll(async () => {
  await stack?.stop();
});

const [WEB, API, DATA] = SEED_PROJECTS;

async function all(
  path: string,
  token: string,
): Promise<{ items: OpenQuestionView[]; pages: number; first: QuestionListReply }> {
  const items: OpenQuestionView[] = [];
  let cursor: string | null = null;
  let pages = 0;
  let first: QuestionListReply | null = null;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const r = await stack.http('GET', `${path}${cursor ? `${sep}cursor=${cursor}` : ''}`, { token });
    expect(r.status).toBe(200);
    first ??= r.body;
    items.push(...r.body.items);
    cursor = r.body.nextCursor;
    pages++;
  } while (cursor);
  return { items, pages, first: first! };
}

const ids = (qs: readonly { questionId: string }[]) => qs.map((q) => q.questionId).sort();

describe('filters and search on the project list', () => {
  it('seeds 200 questions over 3 projects, several authors, roles and parked gates', () => {
    expect(seed.questions).toHaveLength(200);
    expect(new Set(seed.questions.map((q) => q.projectId)).size).toBe(3);
    expect(new Set(seed.questions.map((q) => q.autor))).toEqual(
      new Set(['criativo', 'po', 'arquiteto', 'dev_lead', 'qa-agent']),
    );
    expect(seed.questions.filter((q) => q.parks)).toHaveLength(6);
  });

  it('who=mine|others splits the set the caller can and cannot answer, with counts', async () => {
    const token = stack.token('bruno', WEB, 'viewer');
    const mine = await all(`/projects/${WEB}/open-questions?who=mine&limit=20`, token);
    const expected = seed.of(WEB).filter((q) => q.sessionAuthorId === 'bruno');
    expect(ids(mine.items)).toEqual(ids(expected));
    expect(mine.first.total).toBe(expected.length);
    expect(mine.first.counts).toEqual({ mine: expected.length, others: 67 - expected.length });
    expect(mine.items.every((q: OpenQuestionView) => q.canAnswer === true)).toBe(true);
    const others = await all(`/projects/${WEB}/open-questions?who=others`, token);
    expect(others.items).toHaveLength(67 - expected.length);
    expect(others.items.every((q: OpenQuestionView) => q.canAnswer === false && q.inertReason)).toBe(true);
  });

  it('narrows by role (repeated or a comma list), task, story and rule; total counts the filtered set', async () => {
    const token = stack.token('ana', API, 'viewer');
    const of = (pred: (q: SeededQuestion) => boolean) => ids(seed.of(API).filter(pred));
    const byRole = await all(`/projects/${API}/open-questions?role=po&role=qa-agent`, token);
    expect(ids(byRole.items)).toEqual(of((q) => q.autor === 'po' || q.autor === 'qa-agent'));
    const comma = await stack.http('GET', `/projects/${API}/open-questions?role=po,qa-agent`, { token });
    expect(comma.body.total).toBe(byRole.items.length);
    const task = await all(`/projects/${API}/open-questions?task=T-3`, token);
    expect(ids(task.items)).toEqual(of((q) => q.tarefas.includes('T-3')));
    const story = await all(`/projects/${API}/open-questions?story=S-2&who=mine`, token);
    expect(ids(story.items)).toEqual(of((q) => q.historias.includes('S-2') && q.sessionAuthorId === 'ana'));
    const rule = await all(`/projects/${API}/open-questions?rule=RN-1`, token);
    expect(ids(rule.items)).toEqual(of((q) => q.regras.includes('RN-1')));
    expect(rule.items.length).toBeGreaterThan(0);
  });

  it('searches pergunta and sugestao in Portuguese and English, accents and plurals aside', async () => {
    const token = stack.token('ana', DATA, 'viewer');
    const decisao = await all(`/projects/${DATA}/open-questions?q=${encodeURIComponent('decisões')}`, token);
    expect(ids(decisao.items)).toEqual(ids(seed.of(DATA).filter((q) => q.theme === 'decisao')));
    const archive = await all(`/projects/${DATA}/open-questions?q=archive&sort=blocking`, token);
    expect(ids(archive.items)).toEqual(ids(seed.of(DATA).filter((q) => q.theme === 'archived')));
    // The parked QA questions come first (blocking most first), also in a search.
    expect(
      archive.items.slice(0, 2).every((q: OpenQuestionView) => (q.blocking?.blocks.length ?? 0) > 0),
    ).toBe(true);
    const suggestion = await all(
      `/projects/${DATA}/open-questions?q=${encodeURIComponent('revisao semanal')}`,
      token,
    );
    expect(ids(suggestion.items)).toEqual(
      ids(seed.of(DATA).filter((q) => q.sugestao === 'Sim, com revisão semanal')),
    );
    const prefix = await all(`/projects/${DATA}/open-questions?q=paym`, token);
    expect(ids(prefix.items)).toEqual(ids(seed.of(DATA).filter((q) => q.theme === 'payment')));
  });

  it('refuses a bad filter with 400 parametro_invalido naming the parameter', async () => {
    const token = stack.token('ana', WEB, 'viewer');
    for (const [query, name] of [
      ['who=everyone', 'who'],
      ['role=boss', 'role'],
      ['role=po,boss', 'role'],
      ['task=not%20an%20id', 'task'],
      ['story=' + 'x'.repeat(65), 'story'],
      [`q=${'a'.repeat(201)}`, 'q'],
      ['rule=' + 'r'.repeat(201), 'rule'],
      ['colour=red', 'colour'],
      ['q=%00', 'q'],
      ['role[a]=po', 'role'],
      ['task=T-1&task=T-2', 'task'],
    ] as const) {
      const r = await stack.http('GET', `/projects/${WEB}/open-questions?${query}`, { token });
      expect([query, r.status, r.body.reason]).toEqual([query, 400, 'parametro_invalido']);
      expect(r.body.message).toContain(name);
    }
    // Search syntax and blanks never fail a request: they match what they can.
    for (const q of ['', '   ', '" - or &|!:*()', "o'neil", 'the', '-']) {
      const r = await stack.http('GET', `/projects/${WEB}/open-questions?q=${encodeURIComponent(q)}`, {
        token,
      });
      expect([q, r.status]).toEqual([q, 200]);
    }
  });
});

describe('GET /me/open-questions', () => {
  it('lists the caller’s questions in every project of the token, each with its projectId, blocking first', async () => {
    const token = seed.token('carla');
    const mine = await all('/me/open-questions?who=mine&limit=25', token);
    const expected = seed.questions.filter((q) => q.sessionAuthorId === 'carla');
    expect(ids(mine.items)).toEqual(ids(expected));
    expect(mine.pages).toBe(Math.ceil(expected.length / 25));
    expect(mine.first.total).toBe(expected.length);
    expect(new Set(mine.items.map((q: OpenQuestionView) => q.projectId))).toEqual(new Set(SEED_PROJECTS));
    for (const q of mine.items)
      expect(q.projectId).toBe(seed.questions.find((s) => s.questionId === q.questionId)!.projectId);

    const everyone = await stack.http('GET', '/me/open-questions?limit=10&sort=blocking', { token });
    expect(everyone.body.total).toBe(200);
    expect(everyone.body.sort).toBe('blocking');
    // The six parked QA questions of the three projects come first.
    expect(everyone.body.items.slice(0, 6).map((q: OpenQuestionView) => q.autor)).toEqual(
      Array(6).fill('qa-agent'),
    );
    expect(new Set(everyone.body.items.slice(0, 6).map((q: OpenQuestionView) => q.projectId)).size).toBe(3);
  });

  it('takes the same filters and project=; never shows a project the token has no role on', async () => {
    const token = seed.token('ana', [WEB, DATA]);
    const listed = await all('/me/open-questions?role=arquiteto', token);
    expect(ids(listed.items)).toEqual(
      ids(seed.questions.filter((q) => q.projectId !== API && q.autor === 'arquiteto')),
    );
    const search = await stack.http(
      'GET',
      `/me/open-questions?q=${encodeURIComponent('notificações')}&limit=50`,
      {
        token,
      },
    );
    expect(search.body.items.length).toBeGreaterThan(0);
    expect(search.body.items.every((q: OpenQuestionView) => q.projectId !== API)).toBe(true);
    const one = await all(`/me/open-questions?project=${DATA}&who=mine`, token);
    expect(ids(one.items)).toEqual(ids(seed.of(DATA).filter((q) => q.sessionAuthorId === 'ana')));
    const other = await stack.http('GET', `/me/open-questions?project=${API}`, { token });
    expect([other.status, other.body.reason]).toEqual([403, 'sem_papel_no_projeto']);
  });

  it('refuses no token (401), a bad parameter (400), and answers a token with no project with nothing', async () => {
    const none = await stack.http('GET', '/me/open-questions');
    expect([none.status, none.body.reason]).toEqual([401, 'nao_autenticado']);
    const bad = await stack.http('GET', '/me/open-questions?project=no%20such', { token: seed.token('ana') });
    expect([bad.status, bad.body.reason]).toEqual([400, 'parametro_invalido']);
    expect(bad.body.message).toContain('project');
    const badWho = await stack.http('GET', '/me/open-questions?who=x', { token: seed.token('ana') });
    expect([badWho.status, badWho.body.reason]).toEqual([400, 'parametro_invalido']);
    const service = await stack.http('GET', '/me/open-questions', { service: true });
    expect(service.status).toBe(401);
    const now = Math.floor(Date.now() / 1000);
    const noRoles = await signJwt(
      { sub: 'ana', roles: {}, iat: now, exp: now + 600 },
      { alg: 'HS256', secret: DEV_JWT_SECRET },
    );
    const empty = await stack.http('GET', '/me/open-questions', { token: noRoles });
    expect([empty.status, empty.body.items, empty.body.total]).toEqual([200, [], 0]);
  });
});

describe('GET /me/stream', () => {
  it('fans in the live events of the token’s projects, and nothing of another project', async () => {
    const token = seed.token('ana', [WEB, API]);
    const client = await SseClient.open(`${stack.baseUrl}/me/stream`, { authorization: `Bearer ${token}` });
    try {
      expect(client.status).toBe(200);
      await client.ready();
      const declare = async (projectId: string, toolCallId: string) => {
        const r = await stack.http('POST', `/internal/projects/${projectId}/open-questions`, {
          service: true,
          body: {
            sessionId: 's-live',
            sessionAuthorId: 'ana',
            autor: 'po',
            pergunta: `Live question in ${projectId}?`,
            sugestao: null,
            afeta: { regras: [], historias: [], tarefas: [] },
            toolCallId,
          },
        });
        expect(r.status).toBe(201);
        return r.body.questionId as string;
      };
      const hidden = await declare(DATA, 'live-hidden');
      const web = await declare(WEB, 'live-web');
      const api = await declare(API, 'live-api');
      await client.until(
        () => client.envelopes.filter((e) => e.envelope.type === 'question.declared').length >= 2,
        'both declarations',
      );
      const declared = client.envelopes
        .filter((e) => e.envelope.type === 'question.declared')
        .map((e) => [e.envelope.projectId, (e.envelope.data as { questionId: string }).questionId]);
      expect(declared).toEqual([
        [WEB, web],
        [API, api],
      ]);
      expect(JSON.stringify(client.events)).not.toContain(hidden);
      expect(client.of('open_count')).toEqual([]);
    } finally {
      client.close();
    }
  });

  it('refuses a request without a token', async () => {
    const client = await SseClient.open(`${stack.baseUrl}/me/stream`, {});
    expect(client.status).toBe(401);
  });

  it('is in the OpenAPI document, the filters named in the list routes’ summaries', async () => {
    const doc = await stack.http('GET', '/docs-json');
    const paths = doc.body.paths as Record<string, { get?: { summary?: string } }>;
    expect(Object.keys(paths)).toEqual(expect.arrayContaining(['/me/open-questions', '/me/stream']));
    expect(paths['/me/open-questions']?.get?.summary).toContain('project=');
    expect(paths['/projects/{projectId}/open-questions']?.get?.summary).toContain('who=all|mine|others');
  });
});
