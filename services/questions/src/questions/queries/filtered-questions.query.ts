import type { EntityManager } from 'typeorm';
import type { Delegation } from '../delegation/domain/delegation';
import { grantsInForce } from '../policy/queries/grants-in-force.query';
import {
  isFiltered,
  refusal,
  type QuestionFilterFields,
  type QuestionListFilter,
  type QuestionListReply,
  type Refusal,
} from '@openq/contracts';
import {
  decodeRankedCursor,
  encodeCursor,
  listQuestions,
  precedentsOf,
  toView,
  type ViewRow,
} from './list-open-questions.query';

/** A list request of one project or several, with the filters of issue #18. */
export interface FilteredListRequest extends QuestionFilterFields {
  projectIds: readonly string[];
  userId: string;
  status: QuestionListFilter;
  limit: number;
  cursor?: string | null;
  first?: readonly string[];
}

/** The status words a filter is written with in SQL (a fixed list, never the caller's text). */
const STATUS_CLAUSE = {
  open: `AND status = 'open'`,
  answered: `AND status = 'answered'`,
  withdrawn: `AND status = 'withdrawn'`,
  all: '',
} as const;

/**
 * [openq] issue #18 the list with filters, or over several projects: one statement reads the
 * matching rows once (by the indexes the filters allow: `question_view_search` for `q`,
 * `question_view_declared` for `afeta`, the status index otherwise), counts them as the caller's
 * and the others', and cuts the page. Order and cursor are those of the unfiltered lists: with
 * `first` (open questions only) those ids first in that order, then the rest oldest first.
 *
 * One project without filters keeps the counter-table path (`listQuestions`), which answers
 * without counting rows.
 */
export async function listFiltered(
  manager: EntityManager,
  q: FilteredListRequest,
): Promise<QuestionListReply | Refusal> {
  if (q.projectIds.length === 1 && !isFiltered(q)) {
    const { projectIds, ...rest } = q;
    return listQuestions(manager, { ...rest, projectId: projectIds[0]!, first: q.first });
  }
  const ranked = Boolean(q.first?.length) && q.status === 'open';
  const first = ranked ? q.first! : [];
  const rest = first.length + 1;
  const cursor = q.cursor ? decodeRankedCursor(q.cursor) : { rank: 0, position: '0' };
  if (cursor === null)
    return refusal(400, 'parametro_invalido', 'cursor: is not a cursor this list gave out');
  const afterRank = ranked ? (cursor.rank ?? rest) : q.cursor ? rest : 0;
  const params: unknown[] = [q.projectIds, q.userId, first, rest, afterRank, cursor.position, q.limit + 1];
  const where: string[] = [];
  const param = (value: unknown) => `$${params.push(value)}`;
  if (q.role?.length) where.push(`AND declared->>'autor' = ANY(${param(q.role)}::text[])`);
  if (q.session) where.push(`AND declared @> ${param(JSON.stringify({ sessionId: q.session }))}::jsonb`);
  for (const [key, value] of [
    ['tarefas', q.task],
    ['historias', q.story],
    ['regras', q.rule],
  ] as const) {
    if (value) where.push(`AND declared @> ${param(JSON.stringify({ afeta: { [key]: [value] } }))}::jsonb`);
  }
  if (q.q) {
    const prefix = prefixOf(q.q);
    where.push(
      prefix
        ? `AND (search @@ question_search_query(${param(q.q)})
                OR search @@ question_search_prefix(${param(prefix.head)}, ${param(prefix.last)}))`
        : `AND search @@ question_search_query(${param(q.q)})`,
    );
  }
  const who = q.who === 'mine' ? 'AND mine' : q.who === 'others' ? 'AND NOT mine' : '';
  const rows: (Partial<ViewRow> & { rank: number | null; mine_count: number; others_count: number })[] =
    await manager.query(
      `WITH f AS MATERIALIZED (
         SELECT project_id, declared_position, declared, answered, withdrawn, amended, askers,
                (declared->>'sessionAuthorId') IS NOT DISTINCT FROM $2 AS mine,
                COALESCE(array_position($3::uuid[], question_id), $4::int) AS rank
           FROM question_view
          WHERE project_id = ANY($1::text[]) ${STATUS_CLAUSE[q.status]} ${where.join(' ')}),
       c AS (SELECT count(*) FILTER (WHERE mine)::int AS mine_count,
                    count(*) FILTER (WHERE NOT mine)::int AS others_count FROM f)
       SELECT c.mine_count, c.others_count, v.*
         FROM c
         LEFT JOIN LATERAL (
           SELECT project_id, declared_position, declared, answered, withdrawn, amended, askers, rank FROM f
            WHERE (rank, declared_position) > ($5::int, $6::bigint) ${who}
            ORDER BY rank, declared_position LIMIT $7
         ) v ON true
        ORDER BY v.rank, v.declared_position`,
      params,
    );
  const items = rows.filter((row): row is ViewRow & (typeof rows)[number] => row.declared_position != null);
  const page = items.slice(0, q.limit);
  const last = page[page.length - 1];
  const counts = { mine: rows[0]?.mine_count ?? 0, others: rows[0]?.others_count ?? 0 };
  // §11.6 a delegate may answer for the author: the grants to the caller, per project on the page.
  const grants = new Map<string, Delegation[]>();
  if (q.status !== 'answered' && q.status !== 'withdrawn') {
    for (const projectId of new Set(page.map((row) => row.project_id))) {
      grants.set(projectId, await grantsInForce(manager, projectId, q.userId));
    }
  }
  const precedents = await precedentsOf(manager, page);
  return {
    items: page.map((row) => toView(row, q.userId, grants.get(row.project_id) ?? [], precedents)),
    total: q.who === 'mine' ? counts.mine : q.who === 'others' ? counts.others : counts.mine + counts.others,
    limit: q.limit,
    nextCursor:
      items.length > q.limit && last
        ? ranked
          ? encodeCursor(last.declared_position, last.rank!)
          : encodeCursor(last.declared_position)
        : null,
    counts,
  };
}

/**
 * [openq] the last word of a search also matches as a prefix ("decis" finds "decisão") when it is
 * a plain word of three letters or digits or more, not inside an unclosed quote nor negated.
 */
export function prefixOf(text: string): { head: string; last: string } | null {
  const m = /(^|\s)([\p{L}\p{N}]{3,})$/u.exec(text);
  if (!m || (text.match(/"/g)?.length ?? 0) % 2 === 1) return null;
  return { head: text.slice(0, m.index + m[1]!.length), last: m[2]! };
}
