import type { EntityManager } from 'typeorm';
import {
  openQuestionsQueuePath,
  readinessNotice,
  refusal,
  type OpenQuestionView,
  type DecisionSuperseded,
  type Precedent,
  type QuestionAsker,
  type QuestionAnswered,
  type QuestionDeclared,
  type QuestionListFilter,
  type QuestionListReply,
  type QuestionWithdrawn,
  type ReadinessAction,
  type ReadinessReply,
  type Refusal,
} from '@openq/contracts';
import { answerability, canAmend, statusOf } from '../domain/question';
import { precedentOf } from '../domain/ask-once';
import type { Delegation } from '../delegation/domain/delegation';
import { grantsInForce } from '../policy/queries/grants-in-force.query';
import {
  answerFromWire,
  declarationFromWire,
  precedentToWire,
  supersessionFromWire,
  withdrawalFromWire,
} from '../store/question-log.store';

/**
 * §11.6 the grants to the asking user in the project, for `canAnswer` / `answeringAs`: only the
 * lists that show open questions need them (one more statement, by the `delegation_log_to` index),
 * and only while the project's delegation policy is on (§12.1).
 */
function grantsTo(
  manager: EntityManager,
  q: { projectId: string; userId: string; status: QuestionListFilter },
): Promise<Delegation[]> {
  return q.status === 'open' || q.status === 'all'
    ? grantsInForce(manager, q.projectId, q.userId)
    : Promise.resolve([]);
}

export interface ViewRow {
  project_id: string;
  declared_position: string;
  declared: QuestionDeclared;
  answered: QuestionAnswered | null;
  withdrawn: QuestionWithdrawn | null;
  amended: DecisionSuperseded | null;
  /** §12.3 the askers that joined it (the first asker is the declaration's). */
  askers: QuestionAsker[];
}

type Counts = { open: number; answered: number; withdrawn: number };

/**
 * The cursor is the last item's log position, opaque to callers; in a list ranked by `first`
 * (issue #18), the last item's rank too (`r:<rank>:<position>`).
 */
export function encodeCursor(position: string, rank?: number): string {
  return Buffer.from(rank === undefined ? `p:${position}` : `r:${rank}:${position}`).toString('base64url');
}

export function decodeCursor(cursor: string): string | null {
  return decodeRankedCursor(cursor)?.position ?? null;
}

/** The rank and position a cursor names; a plain `p:` cursor ranks with the rest (`rank` null). */
export function decodeRankedCursor(cursor: string): { rank: number | null; position: string } | null {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  if (/^p:\d{1,19}$/.test(text)) return { rank: null, position: text.slice(2) };
  const m = /^r:(\d{1,4}):(\d{1,19})$/.exec(text);
  return m ? { rank: Number(m[1]), position: m[2]! } : null;
}

/**
 * §4: oldest first, a slice of at most `limit`, with the total of the filter and a stable cursor.
 * The slice and the counts are read by one statement, so they come from one snapshot at any
 * isolation level and never disagree about a concurrent write, in one round trip.
 */
export async function listQuestions(
  manager: EntityManager,
  q: {
    projectId: string;
    userId: string;
    status: QuestionListFilter;
    limit: number;
    cursor?: string | null;
    first?: readonly string[];
  },
): Promise<QuestionListReply | Refusal> {
  if (q.first?.length && q.status === 'open') return listRanked(manager, { ...q, first: q.first });
  const after = q.cursor ? decodeCursor(q.cursor) : '0';
  if (after === null) return refusal(400, 'parametro_invalido', 'cursor: is not a cursor this list gave out');
  // One row per item, each carrying the counts; one row of counts alone when the slice is empty.
  const rows: (Partial<ViewRow> & {
    open_count: number | null;
    answered_count: number | null;
    withdrawn_count: number | null;
  })[] = await manager.query(listStatement(q.status), [q.projectId, after, q.limit + 1]);
  const items = rows.filter((row): row is ViewRow & (typeof rows)[number] => row.declared_position != null);
  const page = items.slice(0, q.limit);
  const grants = await grantsTo(manager, q);
  const precedents = await precedentsOf(manager, page);
  const counts = {
    open: rows[0]?.open_count ?? 0,
    answered: rows[0]?.answered_count ?? 0,
    withdrawn: rows[0]?.withdrawn_count ?? 0,
  };
  return {
    items: page.map((row) => toView(row, q.userId, grants, precedents)),
    total: totalOf(counts, q.status),
    limit: q.limit,
    nextCursor: items.length > q.limit ? encodeCursor(page[page.length - 1]!.declared_position) : null,
  };
}

/**
 * The list's one statement: `$1` project, `$2` the position after which to start, `$3` how many
 * rows (a page and one more, to know whether another page follows).
 */
export function listStatement(status: QuestionListFilter): string {
  const statusClause = status === 'all' ? '' : `AND status = '${STATUS_WORD[status]}'`;
  return `SELECT c.open AS open_count, c.answered AS answered_count, c.withdrawn AS withdrawn_count,
                 v.project_id, v.declared_position, v.declared, v.answered, v.withdrawn, v.amended, v.askers
            FROM (SELECT $1::text AS project_id) p
            LEFT JOIN question_counts c ON c.project_id = p.project_id
            LEFT JOIN LATERAL (
              SELECT project_id, declared_position, declared, answered, withdrawn, amended, askers FROM question_view
               WHERE project_id = $1 ${statusClause} AND declared_position > $2
               ORDER BY declared_position LIMIT $3
            ) v ON true
           ORDER BY v.declared_position`;
}

/**
 * [openq] issue #18 the open list with `first` (the gates service's blocking set, in its order) at
 * the top, then the rest oldest first. Each part is read by the index it would use alone (the
 * `first` ids by key, the rest by `question_view_by_status`), in one statement with the counts.
 * The rank is a question's place in `first` (the rest share `first.length + 1`); the cursor holds
 * the last item's rank and position. A question whose blocking changes between two pages moves
 * rank: it may be shown twice or skipped once across them (the next reload orders it anew).
 */
async function listRanked(
  manager: EntityManager,
  q: { projectId: string; userId: string; limit: number; cursor?: string | null; first: readonly string[] },
): Promise<QuestionListReply | Refusal> {
  const rest = q.first.length + 1;
  const cursor = q.cursor ? decodeRankedCursor(q.cursor) : { rank: 0, position: '0' };
  if (cursor === null)
    return refusal(400, 'parametro_invalido', 'cursor: is not a cursor this list gave out');
  const afterRank = cursor.rank ?? rest;
  const rows: (Partial<ViewRow> & {
    rank: number | null;
    open_count: number | null;
    answered_count: number | null;
    withdrawn_count: number | null;
  })[] = await manager.query(
    `SELECT c.open AS open_count, c.answered AS answered_count, c.withdrawn AS withdrawn_count,
            v.project_id, v.declared_position, v.declared, v.answered, v.withdrawn, v.amended, v.askers, v.rank
       FROM (SELECT $1::text AS project_id) p
       LEFT JOIN question_counts c ON c.project_id = p.project_id
       LEFT JOIN LATERAL (
         (SELECT project_id, declared_position, declared, answered, withdrawn, amended, askers,
                 array_position($4::uuid[], question_id) AS rank
            FROM question_view
           WHERE project_id = $1 AND status = 'open' AND question_id = ANY($4::uuid[])
             AND (array_position($4::uuid[], question_id), declared_position) > ($5::int, $2::bigint)
           ORDER BY rank LIMIT $3)
         UNION ALL
         (SELECT project_id, declared_position, declared, answered, withdrawn, amended, askers, $6::int AS rank
            FROM question_view
           WHERE project_id = $1 AND status = 'open' AND NOT (question_id = ANY($4::uuid[]))
             AND ($5::int < $6::int OR declared_position > $2::bigint)
           ORDER BY declared_position LIMIT $3)
       ) v ON true
      ORDER BY v.rank, v.declared_position`,
    [q.projectId, cursor.position, q.limit + 1, q.first, afterRank, rest],
  );
  const items = rows
    .filter((row): row is ViewRow & (typeof rows)[number] => row.declared_position != null)
    .slice(0, q.limit + 1);
  const page = items.slice(0, q.limit);
  const last = page[page.length - 1];
  const grants = await grantsTo(manager, { ...q, status: 'open' });
  const precedents = await precedentsOf(manager, page);
  return {
    items: page.map((row) => toView(row, q.userId, grants, precedents)),
    total: rows[0]?.open_count ?? 0,
    limit: q.limit,
    nextCursor: items.length > q.limit && last ? encodeCursor(last.declared_position, last.rank!) : null,
  };
}

/** The status words a filter is written with in SQL (a fixed list, never the caller's text). */
const STATUS_WORD = { open: 'open', answered: 'answered', withdrawn: 'withdrawn' } as const;

function totalOf(counts: Counts, status: QuestionListFilter): number {
  return status === 'all' ? counts.open + counts.answered + counts.withdrawn : counts[status];
}

export async function countQuestions(
  manager: EntityManager,
  projectId: string,
  status: QuestionListFilter,
): Promise<number> {
  const rows: Counts[] = await manager.query(
    `SELECT open, answered, withdrawn FROM question_counts WHERE project_id = $1`,
    [projectId],
  );
  return totalOf(rows[0] ?? { open: 0, answered: 0, withdrawn: 0 }, status);
}

/** §4 readiness: warns with the open count and a shortcut to the queue; never blocks. */
export async function readiness(
  manager: EntityManager,
  projectId: string,
  action: ReadinessAction,
): Promise<ReadinessReply> {
  const open = await countQuestions(manager, projectId, 'open');
  return {
    action,
    openQuestions: open,
    blocking: false,
    notice: readinessNotice(open),
    queue: openQuestionsQueuePath(projectId),
  };
}

const NO_PRECEDENTS: ReadonlyMap<string, Precedent> = new Map();

/**
 * §12.3 the decisions the page's insisted questions were asked again over (`precedentOf`), as
 * they stand (an amendment over the agent's answer), by that question's id: what the inbox shows
 * as "decided before". One statement by the view's key, and none for a page without any.
 */
export async function precedentsOf(
  manager: EntityManager,
  page: readonly Pick<ViewRow, 'declared'>[],
): Promise<ReadonlyMap<string, Precedent>> {
  const ids = [
    ...new Set(page.flatMap((row) => (row.declared.precedentOf ? [row.declared.precedentOf] : []))),
  ];
  if (ids.length === 0) return NO_PRECEDENTS;
  const rows: Pick<ViewRow, 'project_id' | 'declared' | 'answered' | 'amended'>[] = await manager.query(
    `SELECT project_id, declared, answered, amended FROM question_view WHERE question_id = ANY($1::uuid[])`,
    [ids],
  );
  const found = new Map<string, Precedent>();
  for (const row of rows) {
    const precedent = precedentOf({
      projectId: row.project_id,
      declared: declarationFromWire(row.declared),
      answered: row.answered && answerFromWire(row.answered),
      withdrawn: null,
      amended: row.amended && supersessionFromWire(row.amended),
      joined: [],
    });
    if (precedent) found.set(precedent.questionId, precedentToWire(precedent));
  }
  return found;
}

export function toView(
  row: ViewRow,
  userId: string,
  grants: readonly Delegation[] = [],
  precedents: ReadonlyMap<string, Precedent> = NO_PRECEDENTS,
  now = new Date(),
): OpenQuestionView {
  const question = {
    projectId: row.project_id,
    declared: declarationFromWire(row.declared),
    answered: row.answered && answerFromWire(row.answered),
    withdrawn: row.withdrawn && withdrawalFromWire(row.withdrawn),
    amended: row.amended && supersessionFromWire(row.amended),
    joined: [],
  };
  const a = row.answered;
  const w = row.withdrawn;
  // §11.5 the newest decision stands: the session author's amendment over the agent's answer.
  const m = row.amended;
  const { canAnswer, inertReason, answeringAs } = answerability(question, userId, grants, now);
  // Object.assign, not `{ ...row.declared, …, ...answerability() }`: the same object, but V8 builds
  // a spread of a JSON-parsed row plus further properties ~10× slower, and a page has 50 of
  // them — it was most of the CPU of a list request (docs/performance.md, scenario 4).
  const { autor, sessionId, toolCallId } = row.declared;
  const view: OpenQuestionView = Object.assign({}, row.declared, {
    projectId: row.project_id,
    askers: [{ autor, sessionId, toolCallId }, ...row.askers],
    status: statusOf(question),
    resposta: m ? m.resposta : (a?.resposta ?? null),
    aceitouSugestao: m ? false : (a?.aceitouSugestao ?? null),
    decisionEventId: m ? m.decisionEventId : (a?.decisionEventId ?? null),
    respondidaPor: a?.respondidaPor ?? null,
    // §11.6 who clicked (the author's delegate, or the author) and under which grant.
    answeredBy: a?.answeredBy ?? null,
    grantId: a?.grantId ?? null,
    viaAgente: m ? null : (a?.viaAgente ?? null),
    agentSessionId: m ? null : (a?.agentSessionId ?? null),
    answeredAt: a?.answeredAt ?? null,
    withdrawal: w ? { by: w.by, motivo: w.motivo, withdrawnAt: w.withdrawnAt } : null,
    amendment:
      m && a
        ? {
            supersededDecisionEventId: m.supersededDecisionEventId,
            supersededViaAgente: m.supersededViaAgente,
            supersededResposta: a.resposta,
            by: m.by,
            supersededAt: m.supersededAt,
          }
        : null,
    canAnswer,
    canAmend: canAmend(question, userId),
    inertReason,
    answeringAs: answeringAs ?? null,
  });
  // §12.3 only on a question asked again over a decision: that decision (null if it is unknown).
  const over = row.declared.precedentOf;
  if (over) view.precedent = precedents.get(over) ?? null;
  return view;
}
