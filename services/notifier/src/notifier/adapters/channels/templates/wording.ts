import {
  GATE_NAMES,
  QUESTION_AUTHOR_NAMES,
  isLanguage,
  type Gate,
  type Language,
  type QuestionAuthor,
} from '@openq/contracts';
import type { Notification, NotificationKind, Wait } from '../channel';
import { wallClockText } from '../../../domain/clock';

/**
 * What every channel says about a notification, in one place, in every language openq speaks
 * (issue #30: the recipient's language — theirs, else the project's, else English — is on the
 * notification as `language`). Functions get already resolved values and return plain text; each
 * channel escapes for its own format. Gate kinds and agents are named by the contract's tables.
 */
export interface NotificationWords {
  /** `Intl` locale of dates. */
  locale: string;
  askedBy: (agent: string) => string;
  suggestion: string;
  noSuggestion: string;
  affects: string;
  affectsParts: { regras: string; historias: string; tarefas: string };
  blocks: string;
  accept: string;
  open: string;
  project: (projectId: string) => string;
  moreQuestions: (n: number) => string;
  /** A gate kind the contract does not name (an older row). */
  unknownGate: (gate: string) => string;
  /** No gate named at all. */
  someGate: string;
  gateOn: (gateName: string, taskId: string) => string;
  analystFor: (taskId: string) => string;
  workOn: (taskId: string) => string;
  /** The subject of an e-mail, the header of a Slack message. */
  headline: Record<NotificationKind, (n: HeadlineInput) => string>;
  /** One line under the headline saying why the reader gets this. */
  lead: Record<NotificationKind, string>;
  /** After the lead of a clock notice. */
  dueLine: (dueText: string) => string;
  /** A digest groups notifications by kind under these titles. */
  groupTitle: Record<NotificationKind, string>;
}

const EN: NotificationWords = {
  locale: 'en-GB',
  askedBy: (agent) => `Asked by the ${agent} agent`,
  suggestion: 'Suggestion',
  noSuggestion: 'No suggestion was given.',
  affects: 'Affects',
  affectsParts: { regras: 'rules', historias: 'stories', tarefas: 'tasks' },
  blocks: 'Blocks',
  accept: 'Accept the suggestion',
  open: 'Open in openq',
  project: (projectId) => `Project ${projectId}`,
  moreQuestions: (n) => `and ${n} more question${n === 1 ? '' : 's'}`,
  unknownGate: (gate) => `${gate} gate`,
  someGate: 'The gate',
  gateOn: (gateName, taskId) => `${gateName} on ${taskId}`,
  analystFor: (taskId) => `analyst for ${taskId}`,
  workOn: (taskId) => `work on ${taskId}`,
  headline: {
    question_declared: (n) =>
      n.count > 1
        ? `${n.count} questions need your decision`
        : `Decision needed: ${n.firstQuestion ?? 'a question'}`,
    gate_parked: (n) => `${n.gateLabel} is waiting for your decision`,
    question_answered: (n) =>
      n.count > 1 ? `${n.count} questions were answered` : `Answered: ${n.firstQuestion ?? 'a question'}`,
    gate_resumed: (n) => {
      switch (n.trigger) {
        case 'override':
          return `${n.gateLabel} resumed by a maintainer's override`;
        case 'withdrawn':
          return `${n.gateLabel} resumed: its questions were withdrawn`;
        case 'human':
          return `${n.gateLabel} resumed`;
        default:
          return `${n.gateLabel} resumed with your decision`;
      }
    },
    question_reminder: (n) => `Reminder: ${n.firstQuestion ?? 'a question waits for you'}`,
    question_due: (n) => `Due now: ${n.firstQuestion ?? 'a question waits for you'}`,
    question_escalated: (n) =>
      `${n.late.join(', ') || 'Its author'} is late to answer: ${n.firstQuestion ?? 'a question'}`,
  },
  lead: {
    question_declared: 'An agent asked a question only you can settle. Until then, the work below waits.',
    gate_parked: 'The gate parked until these questions are answered.',
    question_answered: 'This question has an answer now; the work it blocked can go on.',
    gate_resumed: 'The gate runs again; nothing waits on you here any more.',
    question_reminder: 'A question only you can settle is still open, and the work below still waits on it.',
    question_due: 'This question is due now: the project asked for an answer by this time.',
    question_escalated:
      'The project escalates late questions to you: you can see who is late and nudge them. Only the author can answer.',
  },
  dueLine: (dueText) => `Due ${dueText}.`,
  groupTitle: {
    gate_parked: 'Gates waiting for your decision',
    question_declared: 'Questions waiting for your decision',
    question_answered: 'Answered',
    gate_resumed: 'Resumed',
    question_reminder: 'Reminders',
    question_due: 'Due now',
    question_escalated: 'Late questions escalated to you',
  },
};

const PT_BR: NotificationWords = {
  locale: 'pt-BR',
  askedBy: (agent) => `Perguntado pelo agente ${agent}`,
  suggestion: 'Sugestão',
  noSuggestion: 'Nenhuma sugestão foi dada.',
  affects: 'Afeta',
  affectsParts: { regras: 'regras', historias: 'histórias', tarefas: 'tarefas' },
  blocks: 'Bloqueia',
  accept: 'Aceitar a sugestão',
  open: 'Abrir no openq',
  project: (projectId) => `Projeto ${projectId}`,
  moreQuestions: (n) => `e mais ${n} pergunta${n === 1 ? '' : 's'}`,
  unknownGate: (gate) => `Gate ${gate}`,
  someGate: 'O gate',
  gateOn: (gateName, taskId) => `${gateName} em ${taskId}`,
  analystFor: (taskId) => `análise de ${taskId}`,
  workOn: (taskId) => `trabalho em ${taskId}`,
  headline: {
    question_declared: (n) =>
      n.count > 1
        ? `${n.count} perguntas precisam da sua decisão`
        : `Decisão necessária: ${n.firstQuestion ?? 'uma pergunta'}`,
    gate_parked: (n) => `${n.gateLabel} espera a sua decisão`,
    question_answered: (n) =>
      n.count > 1
        ? `${n.count} perguntas foram respondidas`
        : `Respondida: ${n.firstQuestion ?? 'uma pergunta'}`,
    gate_resumed: (n) => {
      switch (n.trigger) {
        case 'override':
          return `${n.gateLabel} retomado por decisão de um mantenedor, sem a resposta`;
        case 'withdrawn':
          return `${n.gateLabel} retomado: as perguntas dele foram retiradas`;
        case 'human':
          return `${n.gateLabel} retomado`;
        default:
          return `${n.gateLabel} retomado com a sua decisão`;
      }
    },
    question_reminder: (n) => `Lembrete: ${n.firstQuestion ?? 'uma pergunta espera por você'}`,
    question_due: (n) => `Prazo agora: ${n.firstQuestion ?? 'uma pergunta espera por você'}`,
    question_escalated: (n) =>
      `${n.late.join(', ') || 'O autor'} está atrasado para responder: ${n.firstQuestion ?? 'uma pergunta'}`,
  },
  lead: {
    question_declared:
      'Um agente fez uma pergunta que só você pode decidir. Até lá, o trabalho abaixo espera.',
    gate_parked: 'O gate ficou estacionado até que estas perguntas sejam respondidas.',
    question_answered: 'Esta pergunta agora tem resposta; o trabalho que ela bloqueava pode seguir.',
    gate_resumed: 'O gate roda de novo; nada mais espera por você aqui.',
    question_reminder:
      'Uma pergunta que só você pode decidir continua em aberto, e o trabalho abaixo ainda espera por ela.',
    question_due: 'O prazo desta pergunta é agora: o projeto pediu uma resposta até este horário.',
    question_escalated:
      'O projeto escala para você as perguntas atrasadas: você vê quem está atrasado e pode cobrá-lo. Só o autor pode responder.',
  },
  dueLine: (dueText) => `Prazo: ${dueText}.`,
  groupTitle: {
    gate_parked: 'Gates esperando a sua decisão',
    question_declared: 'Perguntas esperando a sua decisão',
    question_answered: 'Respondidas',
    gate_resumed: 'Retomados',
    question_reminder: 'Lembretes',
    question_due: 'Prazo agora',
    question_escalated: 'Perguntas atrasadas escaladas para você',
  },
};

export const NOTIFICATION_WORDS: Readonly<Record<Language, NotificationWords>> = { en: EN, 'pt-BR': PT_BR };

/** The English words (what every channel said before issue #30). */
export const NOTIFICATION_STRINGS = EN;

export interface HeadlineInput {
  count: number;
  firstQuestion: string | null;
  gateLabel: string;
  trigger: string | undefined;
  /** Escalation: who is late. */
  late: string[];
}

/** Kinds in the order a reader should see them: what waits on them first. */
export const KIND_ORDER: readonly NotificationKind[] = [
  'gate_parked',
  'question_due',
  'question_reminder',
  'question_declared',
  'question_escalated',
  'question_answered',
  'gate_resumed',
];

/** Subjects and Slack headers stay short; the full question is in the body. */
export const HEADLINE_QUESTION_MAX = 100;

/** The notification's language, English when it has none (rows queued before issue #30). */
export function languageOf(n: Pick<Notification, 'language'>): Language {
  return isLanguage(n.language) ? n.language : 'en';
}

export function wordsOf(n: Pick<Notification, 'language'>): NotificationWords {
  return NOTIFICATION_WORDS[languageOf(n)];
}

/** `dev_lead` → `Dev Lead`; an unknown author is shown as given. */
export function agentName(autor: string, language: Language = 'en'): string {
  return QUESTION_AUTHOR_NAMES[autor as QuestionAuthor]?.[language] ?? autor;
}

/** A gate kind's name: `qa` → `QA gate` / `Gate de QA`. */
export function gateName(gate: string, language: Language = 'en'): string {
  return GATE_NAMES[gate as Gate]?.[language] ?? NOTIFICATION_WORDS[language].unknownGate(gate);
}

/** `{ gate: 'qa', taskId: 'T-101' }` → `QA gate on T-101`. */
export function gateLabel(gate: Notification['gate'], language: Language = 'en'): string {
  const words = NOTIFICATION_WORDS[language];
  if (!gate) return words.someGate;
  return words.gateOn(gateName(gate.gate, language), gate.taskId);
}

/** One thing that waits, in words. */
export function waitWords(wait: Wait, language: Language): string {
  const words = NOTIFICATION_WORDS[language];
  switch (wait.kind) {
    case 'gate':
      return words.gateOn(gateName(wait.gate, language), wait.taskId);
    case 'analyst':
      return words.analystFor(wait.taskId);
    case 'work':
      return words.workOn(wait.taskId);
  }
}

/** What waits on the notification, in its language (`blocks` as it is on a row without `waits`). */
export function blocksOf(n: Pick<Notification, 'blocks' | 'waits' | 'language'>): string[] {
  return n.waits ? n.waits.map((w) => waitWords(w, languageOf(n))) : n.blocks;
}

/** Cuts `text` to `max` characters (an ellipsis included), on one line. */
export function shorten(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, max - 1).trimEnd()}…`;
}

/** The headline of one notification, plain text. */
export function headline(n: Notification): string {
  const first = n.questions[0];
  const language = languageOf(n);
  return NOTIFICATION_WORDS[language].headline[n.kind]({
    count: n.questions.length,
    firstQuestion: first ? shorten(first.pergunta, HEADLINE_QUESTION_MAX) : null,
    gateLabel: gateLabel(n.gate, language),
    trigger: n.gate?.trigger,
    late: n.clock?.late ?? [],
  });
}

/** When a clock notice is due, on the reader's wall clock, in their language. */
export function dueTextOf(clock: NonNullable<Notification['clock']>, language: Language): string {
  if (language === 'en' || !clock.timeZone) return clock.dueText;
  return wallClockText(new Date(clock.dueAt), clock.timeZone, NOTIFICATION_WORDS[language].locale);
}

/** The line under the headline: why the reader gets this, and for a clock notice when it is due. */
export function leadLine(n: Notification): string {
  const words = wordsOf(n);
  const lead = words.lead[n.kind];
  return n.clock ? `${lead} ${words.dueLine(dueTextOf(n.clock, languageOf(n)))}` : lead;
}

/** `rules; tasks T-3`, or null when the question names nothing. */
export function affectsLine(
  afeta: Notification['questions'][number]['afeta'],
  language: Language = 'en',
): string | null {
  const parts = (['regras', 'historias', 'tarefas'] as const)
    .filter((key) => afeta[key].length > 0)
    .map((key) => `${NOTIFICATION_WORDS[language].affectsParts[key]} ${afeta[key].join(', ')}`);
  return parts.length > 0 ? parts.join('; ') : null;
}

/** Only http(s) links become buttons: anything else (`javascript:`, a typo) is left out. */
export function isWebLink(url: string | undefined): url is string {
  return typeof url === 'string' && /^https?:\/\/[^\s]+$/i.test(url);
}
