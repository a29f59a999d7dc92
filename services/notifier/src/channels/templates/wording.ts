import type { Notification, NotificationKind } from '../channel';

/**
 * What every channel says about a notification, in one place so it can be localised later
 * (English for now: the service knows no user language yet). Functions get already resolved
 * values and return plain text; each channel escapes for its own format.
 */
export const NOTIFICATION_STRINGS = {
  agents: {
    criativo: 'Criativo',
    po: 'PO',
    arquiteto: 'Arquiteto',
    dev_lead: 'Dev Lead',
    'qa-agent': 'QA',
    analyst: 'Analyst',
  } as Record<string, string>,
  gates: { qa: 'QA gate', secops: 'SecOps gate' } as Record<string, string>,
  askedBy: (agent: string) => `Asked by the ${agent} agent`,
  suggestion: 'Suggestion',
  noSuggestion: 'No suggestion was given.',
  affects: 'Affects',
  affectsParts: { regras: 'rules', historias: 'stories', tarefas: 'tasks' },
  blocks: 'Blocks',
  accept: 'Accept the suggestion',
  open: 'Open in openq',
  project: (projectId: string) => `Project ${projectId}`,
  moreQuestions: (n: number) => `and ${n} more question${n === 1 ? '' : 's'}`,
  /** The subject of an e-mail, the header of a Slack message. */
  headline: {
    question_declared: (n: HeadlineInput) =>
      n.count > 1
        ? `${n.count} questions need your decision`
        : `Decision needed: ${n.firstQuestion ?? 'a question'}`,
    gate_parked: (n: HeadlineInput) => `${n.gateLabel} is waiting for your decision`,
    question_answered: (n: HeadlineInput) =>
      n.count > 1 ? `${n.count} questions were answered` : `Answered: ${n.firstQuestion ?? 'a question'}`,
    gate_resumed: (n: HeadlineInput) => {
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
    question_reminder: (n: HeadlineInput) => `Reminder: ${n.firstQuestion ?? 'a question waits for you'}`,
    question_due: (n: HeadlineInput) => `Due now: ${n.firstQuestion ?? 'a question waits for you'}`,
    question_escalated: (n: HeadlineInput) =>
      `${n.late.join(', ') || 'Its author'} is late to answer: ${n.firstQuestion ?? 'a question'}`,
  } satisfies Record<NotificationKind, (n: HeadlineInput) => string>,
  /** One line under the headline saying why the reader gets this. */
  lead: {
    question_declared: 'An agent asked a question only you can settle. Until then, the work below waits.',
    gate_parked: 'The gate parked until these questions are answered.',
    question_answered: 'This question has an answer now; the work it blocked can go on.',
    gate_resumed: 'The gate runs again; nothing waits on you here any more.',
    question_reminder: 'A question only you can settle is still open, and the work below still waits on it.',
    question_due: 'This question is due now: the project asked for an answer by this time.',
    question_escalated:
      'The project escalates late questions to you: you can see who is late and nudge them. Only the author can answer.',
  } satisfies Record<NotificationKind, string>,
  /** After the lead of a clock notice. */
  dueLine: (dueText: string) => `Due ${dueText}.`,
  /** A digest groups notifications by kind under these titles. */
  groupTitle: {
    gate_parked: 'Gates waiting for your decision',
    question_declared: 'Questions waiting for your decision',
    question_answered: 'Answered',
    gate_resumed: 'Resumed',
    question_reminder: 'Reminders',
    question_due: 'Due now',
    question_escalated: 'Late questions escalated to you',
  } satisfies Record<NotificationKind, string>,
};

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

/** `dev_lead` → `Dev Lead`; an unknown author is shown as given. */
export function agentName(autor: string): string {
  return NOTIFICATION_STRINGS.agents[autor] ?? autor;
}

/** `{ gate: 'qa', taskId: 'T-101' }` → `QA gate on T-101`. */
export function gateLabel(gate: Notification['gate']): string {
  if (!gate) return 'The gate';
  return `${NOTIFICATION_STRINGS.gates[gate.gate] ?? `${gate.gate} gate`} on ${gate.taskId}`;
}

/** Cuts `text` to `max` characters (an ellipsis included), on one line. */
export function shorten(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, max - 1).trimEnd()}…`;
}

/** The headline of one notification, plain text. */
export function headline(n: Notification): string {
  const first = n.questions[0];
  return NOTIFICATION_STRINGS.headline[n.kind]({
    count: n.questions.length,
    firstQuestion: first ? shorten(first.pergunta, HEADLINE_QUESTION_MAX) : null,
    gateLabel: gateLabel(n.gate),
    trigger: n.gate?.trigger,
    late: n.clock?.late ?? [],
  });
}

/** The line under the headline: why the reader gets this, and for a clock notice when it is due. */
export function leadLine(n: Notification): string {
  const lead = NOTIFICATION_STRINGS.lead[n.kind];
  return n.clock ? `${lead} ${NOTIFICATION_STRINGS.dueLine(n.clock.dueText)}` : lead;
}

/** `rules R-1, R-2; tasks T-3`, or null when the question names nothing. */
export function affectsLine(afeta: Notification['questions'][number]['afeta']): string | null {
  const parts = (['regras', 'historias', 'tarefas'] as const)
    .filter((key) => afeta[key].length > 0)
    .map((key) => `${NOTIFICATION_STRINGS.affectsParts[key]} ${afeta[key].join(', ')}`);
  return parts.length > 0 ? parts.join('; ') : null;
}

/** Only http(s) links become buttons: anything else (`javascript:`, a typo) is left out. */
export function isWebLink(url: string | undefined): url is string {
  return typeof url === 'string' && /^https?:\/\/[^\s]+$/i.test(url);
}
