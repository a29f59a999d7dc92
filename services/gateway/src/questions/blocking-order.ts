import {
  BLOCKING_QUESTIONS_MAX,
  type BlockingQuestion,
  type BlockingQuestionsReply,
  type ListOpenQuestionsQuery,
  type OpenQuestionView,
  type QuestionFilterFields,
  type QuestionListReply,
} from '@openq/contracts';

/** The filters of a list query (issue #18), as the `openq.questions.list*` commands take them. */
export function filtersOf(query: ListOpenQuestionsQuery): QuestionFilterFields {
  const { who, role, session, task, story, rule, q } = query;
  return {
    ...(who && who !== 'all' ? { who } : {}),
    ...(role?.length ? { role } : {}),
    ...(session ? { session } : {}),
    ...(task ? { task } : {}),
    ...(story ? { story } : {}),
    ...(rule ? { rule } : {}),
    ...(q ? { q } : {}),
  };
}

/**
 * [openq] issue #18 the blocking sets of several projects as one, blocking most first (then
 * waiting longest), the order the gates service gives each project's: each list is already in
 * that order, so this is their merge, cut at `BLOCKING_QUESTIONS_MAX`.
 */
export function mergeBlocking(
  replies: readonly (BlockingQuestionsReply | null)[],
): BlockingQuestionsReply | null {
  const answered = replies.filter((r): r is BlockingQuestionsReply => r !== null);
  if (answered.length === 0) return null;
  const items = answered.flatMap((r) => r.items).sort(heaviestFirst);
  return { items: items.slice(0, BLOCKING_QUESTIONS_MAX), total: answered.reduce((n, r) => n + r.total, 0) };
}

function heaviestFirst(a: BlockingQuestion, b: BlockingQuestion): number {
  if (a.blocks.length !== b.blocks.length) return b.blocks.length - a.blocks.length;
  if (a.since === b.since) return 0;
  if (a.since === null) return 1;
  if (b.since === null) return -1;
  return a.since < b.since ? -1 : 1;
}

/**
 * The list's items with what blocks each open one (`blocking`), and the order applied (`sort`):
 * `blocking` when it was asked for and the gates service answered, `oldest` otherwise.
 */
export function withBlocking(
  reply: QuestionListReply,
  blocking: BlockingQuestionsReply | null,
  blockingAsked: boolean,
): QuestionListReply {
  const byId = new Map(blocking?.items.map((b) => [b.questionId, b]));
  const add = (q: OpenQuestionView): OpenQuestionView => {
    if (q.status !== 'open' || blocking === null) return { ...q, blocking: null };
    const b = byId.get(q.questionId);
    return { ...q, blocking: b ? { blocks: b.blocks, since: b.since } : { blocks: [], since: null } };
  };
  return {
    ...reply,
    items: reply.items.map(add),
    sort: blockingAsked && blocking !== null ? 'blocking' : 'oldest',
  };
}
