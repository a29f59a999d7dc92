import { mintDevToken, type DevTokenRole } from '../../../tools/token';

/*
 * Who may call what (SPEC §2, §4): every gateway route with the minimum role of the §4 table,
 * every kind of caller, and the status each must get. "Allowed" is the route's own answer on the
 * fixture the test prepares (a task with a running QA cycle, a draft story, a question of ana's).
 */

export const P = 'acl';
export const OTHER = 'elsewhere';
export const TASK = 'T1';
export const STORY = 'S1';
export const AUTHOR = 'ana';

export type Zone = 'user' | 'internal' | 'public';
export type Role = 'viewer' | 'developer' | 'maintainer';

export interface Route {
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  zone: Zone;
  minRole?: Role;
  /** A fresh question per call when the path needs one (`:qid`). */
  needsQuestion?: boolean;
  path: (qid: string) => string;
  body?: unknown;
  /** What an allowed caller gets on the fixture: [status, reason?]. */
  allowed: [number, string?];
  /** The stream answers 200 and stays open: only the status is read. */
  streaming?: boolean;
  /** Only the session author may act here; others with a role get this instead. */
  authorOnly?: [number, string];
  /** Before each call, put the pipeline task where this call is allowed (pause needs it running, resume paused). */
  needsTaskState?: 'running' | 'paused';
}

export const ROUTES: Route[] = [
  {
    name: 'list questions',
    method: 'GET',
    zone: 'user',
    minRole: 'viewer',
    path: () => `/projects/${P}/open-questions`,
    allowed: [200],
  },
  {
    name: 'count',
    method: 'GET',
    zone: 'user',
    minRole: 'viewer',
    path: () => `/projects/${P}/open-questions/count`,
    allowed: [200],
  },
  {
    name: 'answer (click)',
    method: 'POST',
    zone: 'user',
    minRole: 'viewer',
    needsQuestion: true,
    path: (q) => `/projects/${P}/open-questions/${q}/answer`,
    body: { resposta: 'yes' },
    allowed: [200],
    authorOnly: [403, 'so_o_autor_da_sessao'],
  },
  {
    name: 'accept suggestions (bulk)',
    method: 'POST',
    zone: 'user',
    minRole: 'viewer',
    path: () => `/projects/${P}/open-questions/accept-suggestions`,
    // Each item goes through the click's rules and is refused or answered in the 200 body.
    body: { questionIds: ['0190a3b8-7c1d-7e2f-8a3b-1c2d3e4f5a6b'] },
    allowed: [200],
  },
  {
    name: 'delegations (list)',
    method: 'GET',
    zone: 'user',
    minRole: 'viewer',
    path: () => `/projects/${P}/delegations`,
    allowed: [200],
  },
  {
    name: 'grant delegation',
    method: 'POST',
    zone: 'user',
    minRole: 'viewer',
    path: () => `/projects/${P}/delegations`,
    body: { to: 'delegate-of-acl', until: new Date(Date.now() + 30 * 86_400_000).toISOString() },
    // §12.1 delegation is a project policy, off by default: the grant is refused after the role.
    allowed: [409, 'delegacao_desligada'],
  },
  {
    name: 'project policies (§12.1)',
    method: 'GET',
    zone: 'user',
    minRole: 'viewer',
    path: () => `/projects/${P}/policies`,
    allowed: [200],
  },
  {
    name: 'change project policies (§12.1)',
    method: 'PUT',
    zone: 'user',
    minRole: 'maintainer',
    path: () => `/projects/${P}/policies`,
    // What is already in force: 200, nothing recorded, the fixture unchanged.
    body: { delegacao: false, motivo: 'access table' },
    allowed: [200],
  },
  {
    name: 'clock policy',
    method: 'GET',
    zone: 'user',
    minRole: 'viewer',
    path: () => `/projects/${P}/clock-policy`,
    allowed: [200],
  },
  {
    name: 'set clock policy',
    method: 'PUT',
    zone: 'user',
    minRole: 'maintainer',
    path: () => `/projects/${P}/clock-policy`,
    body: { dueAfter: { hours: 8 }, reminders: [{ hours: 4 }] },
    allowed: [200],
  },
  {
    name: 'clock of open questions',
    method: 'GET',
    zone: 'user',
    minRole: 'viewer',
    path: () => `/projects/${P}/open-questions/clock`,
    allowed: [200],
  },
  {
    name: 'readiness',
    method: 'GET',
    zone: 'user',
    minRole: 'viewer',
    path: () => `/projects/${P}/readiness/im_ready`,
    allowed: [200],
  },
  {
    name: 'gates of task',
    method: 'GET',
    zone: 'user',
    minRole: 'viewer',
    path: () => `/projects/${P}/tasks/${TASK}/gates`,
    allowed: [200],
  },
  {
    name: 'resume gate',
    method: 'POST',
    zone: 'user',
    minRole: 'developer',
    path: () => `/projects/${P}/tasks/${TASK}/gates/qa/resume`,
    allowed: [409, 'gate_nao_estacionado'],
  },
  {
    name: 'waiting',
    method: 'GET',
    zone: 'user',
    minRole: 'viewer',
    path: () => `/projects/${P}/waiting`,
    allowed: [200],
  },
  {
    name: 'dev-context',
    method: 'GET',
    zone: 'user',
    minRole: 'viewer',
    path: () => `/projects/${P}/tasks/${TASK}/dev-context`,
    allowed: [200],
  },
  {
    name: 'qa-cut',
    method: 'GET',
    zone: 'user',
    minRole: 'viewer',
    path: () => `/projects/${P}/tasks/${TASK}/qa-cut`,
    allowed: [200],
  },
  {
    name: 'story correction',
    method: 'POST',
    zone: 'user',
    minRole: 'developer',
    path: () => `/projects/${P}/stories/${STORY}/corrections`,
    body: { changes: { title: 'Checkout v2' } },
    allowed: [200],
  },
  {
    name: 'pipeline queue',
    method: 'GET',
    zone: 'user',
    minRole: 'viewer',
    path: () => `/projects/${P}/pipeline/queue`,
    allowed: [200],
  },
  {
    name: 'pipeline pause',
    method: 'POST',
    zone: 'user',
    minRole: 'maintainer',
    path: () => `/projects/${P}/pipeline/tasks/${TASK}/pause`,
    allowed: [200],
    needsTaskState: 'running',
  },
  {
    name: 'pipeline resume',
    method: 'POST',
    zone: 'user',
    minRole: 'maintainer',
    path: () => `/projects/${P}/pipeline/tasks/${TASK}/resume`,
    allowed: [200],
    needsTaskState: 'paused',
  },
  {
    name: 'live stream (SSE)',
    method: 'GET',
    zone: 'user',
    minRole: 'viewer',
    path: () => `/projects/${P}/stream`,
    allowed: [200],
    streaming: true,
  },
  {
    name: 'declare (engine)',
    method: 'POST',
    zone: 'internal',
    path: () => `/internal/projects/${P}/open-questions`,
    body: {
      sessionId: 's1',
      sessionAuthorId: AUTHOR,
      autor: 'po',
      pergunta: 'Engine question?',
      afeta: { regras: [], historias: [], tarefas: [] },
      toolCallId: 'acl-engine-1',
    },
    allowed: [200],
  },
  {
    name: 'answer (agent)',
    method: 'POST',
    zone: 'internal',
    needsQuestion: true,
    path: (q) => `/internal/projects/${P}/open-questions/${q}/answer`,
    body: { viaAgente: 'po', resposta: 'yes' },
    allowed: [200],
  },
  {
    name: 'dev-context (engine)',
    method: 'GET',
    zone: 'internal',
    path: () => `/internal/projects/${P}/tasks/${TASK}/dev-context`,
    allowed: [200],
  },
  {
    name: 'qa-cut (engine)',
    method: 'GET',
    zone: 'internal',
    path: () => `/internal/projects/${P}/tasks/${TASK}/qa-cut`,
    allowed: [200],
  },
  {
    name: 'turn-context',
    method: 'GET',
    zone: 'internal',
    path: () => `/internal/projects/${P}/turn-context?role=po`,
    allowed: [200],
  },
  // SPEC §11.4: the same envelope every time (JetStream keeps one copy): 202 for every allowed call.
  {
    name: 'agent event (HTTP, §11.4)',
    method: 'POST',
    zone: 'internal',
    path: () => `/internal/projects/${P}/events`,
    body: {
      eventId: '0190a3b8-7c1d-7e2f-8a3b-acce55ab1e00',
      type: 'agent.gate.activity',
      schemaVersion: 1,
      occurredAt: '2026-12-01T00:00:00.000Z',
      projectId: P,
      correlationId: 'acl-http-event',
      causationId: null,
      data: { taskId: TASK, gate: 'qa' },
    },
    allowed: [202],
  },
  {
    name: 'story correction (agent/po)',
    method: 'POST',
    zone: 'internal',
    path: () => `/internal/projects/${P}/stories/${STORY}/corrections`,
    body: { changes: { title: 'Checkout v3' } },
    allowed: [200],
  },
  {
    name: 'resume gate (override, §11.1)',
    method: 'POST',
    zone: 'user',
    minRole: 'maintainer',
    path: () => `/projects/${P}/tasks/${TASK}/gates/qa/resume`,
    body: { override: true, motivo: 'access table' },
    // §12.1 the override is a project policy, off by default: refused after the role.
    allowed: [403, 'override_desligado'],
  },
  {
    name: 'gate history',
    method: 'GET',
    zone: 'user',
    minRole: 'viewer',
    path: () => `/projects/${P}/tasks/${TASK}/gates/qa/history`,
    allowed: [200],
  },
  {
    name: 'project gate history',
    method: 'GET',
    zone: 'user',
    minRole: 'viewer',
    path: () => `/projects/${P}/gate-history`,
    allowed: [200],
  },
  // SPEC §11.3: a repo without tasks (idempotent: every allowed call is 200), an unknown story.
  {
    name: 'repo freeze',
    method: 'POST',
    zone: 'user',
    minRole: 'maintainer',
    path: () => `/projects/${P}/pipeline/repos/acl-frozen/freeze`,
    body: { motivo: 'access table' },
    allowed: [200],
  },
  {
    name: 'repo unfreeze',
    method: 'DELETE',
    zone: 'user',
    minRole: 'maintainer',
    path: () => `/projects/${P}/pipeline/repos/acl-frozen/freeze`,
    allowed: [200],
  },
  {
    name: 'story archive',
    method: 'POST',
    zone: 'user',
    minRole: 'developer',
    path: () => `/projects/${P}/stories/S-unknown/archive`,
    allowed: [404, 'historia_nao_encontrada'],
  },
  {
    name: 'story archive (agent/po)',
    method: 'POST',
    zone: 'internal',
    path: () => `/internal/projects/${P}/stories/S-unknown/archive`,
    allowed: [404, 'historia_nao_encontrada'],
  },
  { name: 'healthz', method: 'GET', zone: 'public', path: () => '/healthz', allowed: [200] },
  { name: 'readyz', method: 'GET', zone: 'public', path: () => '/readyz', allowed: [200] },
  { name: 'metrics', method: 'GET', zone: 'public', path: () => '/metrics', allowed: [200] },
];

export interface Caller {
  name: string;
  /** `Authorization: Bearer …` */
  token?: string;
  serviceToken?: string;
  /** The user's role on project P (undefined: none / not a valid user). */
  role?: Role;
  author?: boolean;
  /** Valid user token but no role on P. */
  stranger?: boolean;
}

export interface Secrets {
  jwtSecret: string;
  serviceToken: string;
  issuer?: string;
  audience?: string;
}

const mint = (
  s: Secrets,
  user: string,
  project: string,
  role: DevTokenRole,
  extra: { secret?: string; nowMs?: number; ttl?: string; issuer?: string; audience?: string } = {},
) =>
  mintDevToken({
    user,
    project,
    role,
    secret: s.jwtSecret,
    issuer: s.issuer,
    audience: s.audience,
    ...extra,
  });

export function callers(s: Secrets): Caller[] {
  return [
    { name: 'no credentials' },
    { name: 'malformed token', token: 'not-a.jwt' },
    {
      name: 'expired token',
      token: mint(s, 'dora', P, 'maintainer', { nowMs: Date.now() - 10 * 3600_000, ttl: '1h' }),
    },
    { name: 'wrong signature', token: mint(s, 'dora', P, 'maintainer', { secret: 'x'.repeat(48) }) },
    { name: 'user of another project', token: mint(s, 'eve', OTHER, 'owner'), stranger: true },
    { name: 'viewer', token: mint(s, 'bia', P, 'viewer'), role: 'viewer' },
    { name: 'developer', token: mint(s, 'carl', P, 'developer'), role: 'developer' },
    { name: 'maintainer', token: mint(s, 'dora', P, 'maintainer'), role: 'maintainer' },
    { name: 'session author (viewer)', token: mint(s, AUTHOR, P, 'viewer'), role: 'viewer', author: true },
    { name: 'service token', serviceToken: s.serviceToken },
    { name: 'user token (owner) on any route', token: mint(s, 'olga', P, 'owner'), role: 'maintainer' },
    { name: 'wrong service token', serviceToken: 'y'.repeat(48) },
  ];
}

/** With OPENQ_JWT_ISSUER / OPENQ_JWT_AUDIENCE set: tokens from elsewhere, and the right one. */
export function issuerCallers(s: Secrets): Caller[] {
  return [
    { name: 'wrong issuer', token: mint(s, 'dora', P, 'maintainer', { issuer: 'someone-else' }) },
    { name: 'wrong audience', token: mint(s, 'dora', P, 'maintainer', { audience: 'another-api' }) },
    {
      name: 'no issuer/audience',
      token: mint(s, 'dora', P, 'maintainer', { issuer: undefined, audience: undefined }),
    },
    { name: 'right issuer and audience', token: mint(s, 'dora', P, 'maintainer'), role: 'maintainer' },
  ];
}

const RANK: Record<Role, number> = { viewer: 0, developer: 1, maintainer: 2 };

/** The status (and reason) `caller` must get from `route`. */
export function expected(route: Route, caller: Caller): [number, string?] {
  if (route.zone === 'public') return route.allowed;
  if (route.zone === 'internal')
    return caller.serviceToken && !caller.name.startsWith('wrong')
      ? route.allowed
      : [401, 'token_de_servico_invalido'];
  if (!caller.token) return [401, 'nao_autenticado'];
  if (caller.stranger) return [403, 'sem_papel_no_projeto'];
  if (!caller.role) return [401, 'nao_autenticado'];
  if (RANK[caller.role] < RANK[route.minRole!]) return [403, 'papel_insuficiente'];
  if (route.authorOnly && !caller.author) return route.authorOnly;
  return route.allowed;
}
