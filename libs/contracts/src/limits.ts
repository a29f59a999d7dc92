/**
 * Numeric limits of the contract (SPEC §2–§7). Text lengths count Unicode code points of the
 * trimmed value, so an emoji is one character for the person typing it.
 * Values marked [openq] are not in SPEC: they bound what a producer may send so that one message
 * can never blow up a row, a subject or an agent's context.
 */

/** §3.1 `pergunta`: 1–500 characters after trim. */
export const PERGUNTA_MIN_LENGTH = 1;
export const PERGUNTA_MAX_LENGTH = 500;

/** §3.1 `sugestao`: optional, at most 300 characters after trim. */
export const SUGESTAO_MAX_LENGTH = 300;

/** §3.1 `resposta`: 1–2,000 characters after trim. */
export const RESPOSTA_MIN_LENGTH = 1;
export const RESPOSTA_MAX_LENGTH = 2000;

/** §3.1 `afeta.regras | historias | tarefas`: at most 50 ids each. */
export const AFETA_MAX_IDS = 50;

/** §4 list of open questions: `limit` 1..50, default 50. */
export const LIST_LIMIT_MIN = 1;
export const LIST_LIMIT_MAX = 50;
export const LIST_LIMIT_DEFAULT = 50;

/** [openq] Opaque list cursor: base64url, at most this many characters. */
export const CURSOR_MAX_LENGTH = 256;

/** §5 correction ceiling carried by a verdict or a gate start: 1..20 (default 3 from env). */
export const MAX_CORRECTIONS_MIN = 1;
export const MAX_CORRECTIONS_MAX = 20;

/** §7 analyst questions carried by `agent.analysis.finished`: at most 50. */
export const ANALYST_QUESTIONS_MAX = 50;

/** [openq] `toolCallId`: the engine's tool-call id (OpenAI `call_…`, Anthropic `toolu_…`). */
export const TOOL_CALL_ID_MAX_LENGTH = 200;

/** [openq] QA verdict round. */
export const VERDICTS_MAX = 20;
export const SUBSPECIALTY_MAX_LENGTH = 64;
export const RESUMO_MAX_LENGTH = 2000;
export const VERDICT_ITEMS_MAX = 50;
export const VERDICT_ITEM_MAX_LENGTH = 1000;

/** [openq] Tasks and stories of the pipeline. */
export const TASK_DEPS_MAX = 100;
export const LABELS_MAX = 50;
export const LABEL_MAX_LENGTH = 100;
export const STORY_TITLE_MAX_LENGTH = 300;
export const STORY_ITEMS_MAX = 100;
export const STORY_ITEM_MAX_LENGTH = 2000;
export const STORY_RULES_MAX = 100;
export const STORY_TASKS_MAX = 200;

/** [openq] Free text carried by openq's own events (reasons, messages, `motivo`). */
export const REASON_MAX_LENGTH = 64;
export const MESSAGE_MAX_LENGTH = 2000;

/** §6 decisions block linked to a task: at most 10 decisions and 1,500 rendered characters. */
export const CONTEXT_DECISIONS_MAX = 10;
export const CONTEXT_DECISIONS_MAX_CHARS = 1500;

/** [openq] question ids carried by one gate or pipeline event. */
export const QUESTION_IDS_MAX = 100;

/** [openq] §11.2 question ids one `openq.questions.status` request may ask about. */
export const QUESTION_STATUS_IDS_MAX = 50;

/** [openq] issue #18 at most this many blocking questions in a `gates.blocking` reply (and put first in the list). */
export const BLOCKING_QUESTIONS_MAX = 200;

/** [openq] issue #18 the text search `q` of a question list: 1–200 characters after trim. */
export const SEARCH_TEXT_MAX_LENGTH = 200;

/** [openq] issue #18 projects one cross-project list (`GET /me/open-questions`) reads at most. */
export const ACROSS_PROJECTS_MAX = 100;

/** §11.1 `motivo` of a maintainer's override resume: 1–500 characters after trim. */
export const OVERRIDE_MOTIVO_MIN_LENGTH = 1;
export const OVERRIDE_MOTIVO_MAX_LENGTH = 500;

/** [openq] a gate's history: `limit` 1..50, default 20, newest first. */
export const GATE_HISTORY_LIMIT_MAX = 50;
export const GATE_HISTORY_LIMIT_DEFAULT = 20;
/** §11.3 `motivo` of a repo freeze (a person's words: why no task of the repo may enter). */
export const FREEZE_MOTIVO_MIN_LENGTH = 1;
export const FREEZE_MOTIVO_MAX_LENGTH = 500;

/** §11.5 `motivo` of a withdrawn question (why it no longer needs the user): 1–500 characters after trim. */
/** §12.3 why an agent insists on asking a question already decided (`insistir` + `motivo`). */
export const INSIST_MOTIVO_MIN_LENGTH = 1;
export const INSIST_MOTIVO_MAX_LENGTH = 500;
export const WITHDRAW_MOTIVO_MIN_LENGTH = 1;
export const WITHDRAW_MOTIVO_MAX_LENGTH = 500;

/** [openq] issue #18 questions in one "accept suggestions" request: 1 to 50. */
export const ACCEPT_SUGGESTIONS_MAX = 50;
/** [openq] §11.6 a delegation grant lasts at most this many days (`until` ≤ now + this). */
export const DELEGATION_MAX_DAYS = 90;
