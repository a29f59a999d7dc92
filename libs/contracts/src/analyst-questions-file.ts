import { AnalystQuestionDto } from './events/agent-pipeline.dto';
import { ANALYST_QUESTIONS_MAX, PERGUNTA_MAX_LENGTH, SUGESTAO_MAX_LENGTH } from './limits';
import { validateAs } from './validation';
import { ANALYST_DELIVERABLES, ANALYST_QUESTIONS_FILE } from './vocabulary';

/**
 * The analyst's side of SPEC §7 (ADR-0053 §1): the instruction, the questions file's template and
 * manifest line, and the ONE parser of that file. The engine runs `validateQuestionsFile` before it
 * publishes `agent.analysis.finished`; each question it returns has passed `AnalystQuestionDto`,
 * the DTO the gates service validates that event's `questions` with, and is normalised by
 * `normalizeAnalystQuestion`, the function the pipeline builds its declarations with. A file this
 * accepts is therefore never refused or reshaped on the other side.
 */

/** A question of the analyst, as `agent.analysis.finished` carries it. */
export interface AnalystQuestion {
  pergunta: string;
  sugestao?: string | null;
}

/** Trimmed; a blank or absent suggestion is `null`. */
export interface NormalizedAnalystQuestion {
  pergunta: string;
  sugestao: string | null;
}

/** What the pipeline declares for an analyst question, and what the file parser returns. */
export function normalizeAnalystQuestion(question: AnalystQuestion): NormalizedAnalystQuestion {
  return { pergunta: question.pergunta.trim(), sugestao: question.sugestao?.trim() || null };
}

/** [openq] Where the engine keeps the skeleton (ADR-0053 §1: `docs/_templates/`). */
export const QUESTIONS_FILE_TEMPLATE_PATH = `docs/_templates/${ANALYST_QUESTIONS_FILE}`;

/** ADR-0053 §1: the analyst's contract, for the engine to put in the analyst's prompt. */
export const ANALYST_INSTRUCTION =
  `If a doubt only the user can settle blocks the analysis, write it to ${ANALYST_QUESTIONS_FILE} ` +
  `(one "Question:" per doubt, with your "Suggestion:") and stop there: never fabricate an answer, ` +
  `a requirement or a deliverable to get past it. Write that file only for blocking questions. ` +
  `Relaunched with the answers, write all four deliverables again: the fresh package closes the questions.`;

/**
 * The skeleton of the questions file. Its guidance is an HTML comment, so the skeleton itself holds
 * no question: left untouched it fails with `sem_perguntas`, never reaching the user empty.
 */
export const QUESTIONS_FILE_TEMPLATE = `# Blocking questions

<!--
Write this file only when a doubt that only the user can settle blocks the analysis, and stop
there: do not answer it yourself, and do not write a deliverable on top of a guess.
One section per question (at most ${ANALYST_QUESTIONS_MAX}). A question has 1 to ${PERGUNTA_MAX_LENGTH} characters; its
suggestion, optional, at most ${SUGESTAO_MAX_LENGTH}: the answer you would choose. Either may go on
over the next lines:

## Q1
Question: Which markets does the first release cover?
Suggestion: Brazil only; Portugal in the next release.

Headings and comments are free. Any other line outside a Question or a Suggestion is an error.
The user's answers come back to you when you are relaunched; then write all four deliverables.
-->
`;

/** [openq] ADR-0053 §1: the line that lists the questions file in the pipeline's manifest (PIPELINE_DOCS.md). */
export const QUESTIONS_FILE_MANIFEST_LINE =
  `- \`${ANALYST_QUESTIONS_FILE}\` — analyst, when applicable (template \`${QUESTIONS_FILE_TEMPLATE_PATH}\`): ` +
  `the questions that block the analysis. A signal, not a deliverable: while one of ` +
  `${ANALYST_DELIVERABLES.map((f) => `\`${f}\``).join(', ')} is missing or not newer than it, ` +
  `the task waits in Needs Input for the user.`;

/** Stable reasons of a refused questions file. */
export const QUESTIONS_FILE_REASONS = [
  /** Not one `Question:` in the file (an untouched template included). */
  'sem_perguntas',
  /** More than `ANALYST_QUESTIONS_MAX` questions. */
  'perguntas_demais',
  /** A question that fails `AnalystQuestionDto.pergunta` (blank, too long, unstorable). */
  'pergunta_invalida',
  /** A suggestion that fails `AnalystQuestionDto.sugestao` (too long, unstorable). */
  'sugestao_invalida',
  /** A second `Suggestion:` for one question. */
  'sugestao_duplicada',
  /** A `Suggestion:` with no `Question:` before it in its section. */
  'sugestao_sem_pergunta',
  /** Text that is neither a heading, a comment, a `Question:` nor a `Suggestion:` (reported once per run of lines). */
  'texto_fora_de_pergunta',
  /** `<!--` with no `-->` after it. */
  'comentario_nao_fechado',
  /** Not a string. */
  'arquivo_invalido',
] as const;
export type QuestionsFileReason = (typeof QUESTIONS_FILE_REASONS)[number];

export interface QuestionsFileError {
  /** 1-based line the problem starts on (a question's errors: its `Question:` line). */
  line: number;
  reason: QuestionsFileReason;
  message: string;
}

export type QuestionsFileResult =
  { ok: true; questions: NormalizedAnalystQuestion[] } | { ok: false; errors: QuestionsFileError[] };

const KEY_LINE = /^(?:\*\*)?(question|pergunta|suggestion|sugest[aã]o)(?:\*\*)?[ \t]*:(?:\*\*)?(.*)$/i;
const HEADING = /^#{1,6}(?:[ \t]|$)/;

/** Comments become spaces (line breaks kept, so line numbers hold); an unclosed one runs to the end. */
function blankComments(text: string): { text: string; unclosedAt: number | null } {
  let out = '';
  let from = 0;
  for (;;) {
    const open = text.indexOf('<!--', from);
    if (open < 0) return { text: out + text.slice(from), unclosedAt: null };
    const close = text.indexOf('-->', open + 4);
    const end = close < 0 ? text.length : close + 3;
    out += text.slice(from, open) + text.slice(open, end).replace(/[^\n]/g, ' ');
    if (close < 0) return { text: out, unclosedAt: open };
    from = end;
  }
}

interface Draft {
  line: number;
  pergunta: string[];
  sugestao: string[] | null;
}

/**
 * Parses and validates the analyst's questions file (`01-questions.md`). Format: `Question:` starts
 * a question, `Suggestion:` (optional, once) gives its suggestion, and either goes on over the next
 * lines (blank ones included) until the next key line, a heading or the end. Keys may be bold
 * (`**Question:**`), and the contract's words (`Pergunta:`, `Sugestão:`) are accepted too. Headings
 * (`#`…) close the current question; HTML comments are ignored. Every problem comes back at once,
 * each with its line.
 */
export function validateQuestionsFile(text: string): QuestionsFileResult {
  if (typeof text !== 'string')
    return { ok: false, errors: [{ line: 0, reason: 'arquivo_invalido', message: 'the file is not text' }] };
  const errors: QuestionsFileError[] = [];
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const { text: visible, unclosedAt } = blankComments(source);
  const lines = visible.split(/\r\n|\r|\n/);
  if (unclosedAt !== null) {
    const line = source.slice(0, unclosedAt).split(/\r\n|\r|\n/).length;
    errors.push({
      line,
      reason: 'comentario_nao_fechado',
      message: `line ${line}: "<!--" is never closed by "-->"`,
    });
  }

  const drafts: Draft[] = [];
  let current: Draft | null = null;
  let field: string[] | null = null;
  let strayRun = false;
  lines.forEach((raw, index) => {
    const line = index + 1;
    const trimmed = raw.trim();
    const key = KEY_LINE.exec(raw);
    if (key) {
      strayRun = false;
      const rest = key[2]!.trim();
      if (/^(question|pergunta)$/i.test(key[1]!)) {
        current = { line, pergunta: [rest], sugestao: null };
        drafts.push(current);
        field = current.pergunta;
      } else if (!current) {
        errors.push({
          line,
          reason: 'sugestao_sem_pergunta',
          message: `line ${line}: a Suggestion needs a Question before it, in the same section`,
        });
        field = null;
      } else if (current.sugestao) {
        errors.push({
          line,
          reason: 'sugestao_duplicada',
          message: `line ${line}: the question of line ${current.line} already has a Suggestion`,
        });
        field = null;
      } else {
        current.sugestao = [rest];
        field = current.sugestao;
      }
    } else if (HEADING.test(raw)) {
      current = null;
      field = null;
      strayRun = false;
    } else if (trimmed === '') {
      field?.push('');
      strayRun = false;
    } else if (field) {
      field.push(trimmed);
    } else if (!strayRun) {
      strayRun = true;
      errors.push({
        line,
        reason: 'texto_fora_de_pergunta',
        message: `line ${line}: text outside a Question or a Suggestion (write it as "Question: …" or in a <!-- comment -->)`,
      });
    }
  });

  if (drafts.length === 0)
    errors.push({
      line: 1,
      reason: 'sem_perguntas',
      message: 'no "Question:" in the file: nothing to ask the user',
    });
  if (drafts.length > ANALYST_QUESTIONS_MAX) {
    const line = drafts[ANALYST_QUESTIONS_MAX]!.line;
    errors.push({
      line,
      reason: 'perguntas_demais',
      message: `line ${line}: ${drafts.length} questions, at most ${ANALYST_QUESTIONS_MAX}`,
    });
  }
  const questions: NormalizedAnalystQuestion[] = [];
  for (const draft of drafts) {
    const checked = validateAs(AnalystQuestionDto, {
      pergunta: draft.pergunta.join('\n'),
      sugestao: draft.sugestao?.join('\n') ?? null,
    });
    if (checked.ok) {
      questions.push(normalizeAnalystQuestion(checked.value));
      continue;
    }
    errors.push({
      line: draft.line,
      reason: checked.field === 'sugestao' ? 'sugestao_invalida' : 'pergunta_invalida',
      message: `line ${draft.line}: ${checked.message}`,
    });
  }
  if (errors.length > 0) return { ok: false, errors: errors.sort((a, b) => a.line - b.line) };
  return { ok: true, questions };
}

/**
 * The template with these questions filled in: `validateQuestionsFile` gives them back,
 * normalised. Continuation lines are indented, so no line of a text reads as a key or a heading.
 * Throws `RangeError` on a question the contract refuses, or on a text holding a comment marker.
 */
export function renderQuestionsFile(questions: readonly AnalystQuestion[]): string {
  if (questions.length > ANALYST_QUESTIONS_MAX)
    throw new RangeError(`${questions.length} questions, at most ${ANALYST_QUESTIONS_MAX}`);
  const field = (key: string, value: string) => {
    if (value.includes('<!--') || value.includes('-->'))
      throw new RangeError(
        `${key} holds a comment marker ("<!--" or "-->"): ${JSON.stringify(value.slice(0, 60))}`,
      );
    const [first, ...more] = value.split(/\r\n|\r|\n/).map((l) => l.trim());
    return [`${key}: ${first}`, ...more.map((l) => (l ? `  ${l}` : ''))].join('\n');
  };
  const sections = questions.map((question, i) => {
    const checked = validateAs(AnalystQuestionDto, { ...question });
    if (!checked.ok) throw new RangeError(`question ${i + 1}: ${checked.message}`);
    const { pergunta, sugestao } = normalizeAnalystQuestion(checked.value);
    return [
      `## Q${i + 1}`,
      field('Question', pergunta),
      ...(sugestao ? [field('Suggestion', sugestao)] : []),
    ].join('\n');
  });
  return [QUESTIONS_FILE_TEMPLATE, ...sections.map((s) => `${s}\n`)].join('\n');
}
