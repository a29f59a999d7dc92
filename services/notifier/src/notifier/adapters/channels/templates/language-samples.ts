import type { Language } from '@openq/contracts';
import { englishOnlyWords } from '@openq/testing';
import type { Notification, NotificationKind } from '../channel';
import { DIGEST_WORDS } from '../digest';
import { SLACK_WORDS } from '../slack';
import { EMAIL_WORDS } from './email-template';
import { KIND_ORDER, NOTIFICATION_WORDS } from './wording';

/**
 * [openq] issue #30 what the channels' language specs render: every kind of notification (a
 * gate's every resume trigger, a clock notice with its due time), with Portuguese data, so what
 * English is left in a pt-BR rendering can only come from a template.
 */
export function notificationsIn(language: Language): Notification[] {
  const base = (kind: NotificationKind, i: number): Notification => ({
    id: `d-${i}`,
    kind,
    projectId: 'acme',
    recipientUserId: 'u-ana',
    occurredAt: '2026-12-01T14:20:00.000Z',
    questions: [
      {
        questionId: `q-${i}`,
        pergunta: 'Reembolsos acima de R$ 500 precisam de segunda aprovação?',
        sugestao: i % 2 === 0 ? 'Sim: acima de R$ 500 o financeiro confirma.' : null,
        autor: i % 3 === 0 ? 'analyst' : 'qa-agent',
        afeta: { regras: ['RN-7'], historias: ['S-12'], tarefas: ['T-101'] },
        ...(kind === 'question_answered' ? { resposta: 'Sim.' } : {}),
      },
      ...(i % 2 === 0
        ? [
            {
              questionId: `q-${i}b`,
              pergunta: 'Qual o limite diário?',
              sugestao: null,
              autor: 'po',
              afeta: { regras: [], historias: [], tarefas: [] },
            },
          ]
        : []),
    ],
    blocks: ['QA gate on T-101'],
    waits: [
      { kind: 'gate', gate: 'qa', taskId: 'T-101' },
      { kind: 'analyst', taskId: 'T-20' },
      { kind: 'work', taskId: 'T-3' },
    ],
    gate: { taskId: 'T-101', gate: i % 2 === 0 ? 'qa' : 'secops' },
    links: { open: 'https://openq.example.com/?project=acme#q-1', accept: 'https://openq.example.com/l/tok' },
    language,
    ...(kind.startsWith('question_') && kind !== 'question_declared' && kind !== 'question_answered'
      ? {
          clock: {
            dueAt: '2026-12-02T20:00:00.000Z',
            dueText: 'Wed 2 Dec, 17:00 (America/Sao_Paulo)',
            timeZone: 'America/Sao_Paulo',
            step: 1,
            ...(kind === 'question_escalated' ? { late: ['u-bia'] } : {}),
          },
        }
      : {}),
  });
  const all = KIND_ORDER.map(base);
  const resumes = ['override', 'withdrawn', 'human', 'answer'].map((trigger, i): Notification => ({
    ...base('gate_resumed', 10 + i),
    gate: { taskId: 'T-101', gate: 'qa', trigger },
  }));
  return [...all, ...resumes];
}

/** Names and words both languages use: openq, the gates' and agents' names, the channels. */
const SHARED = [
  'openq',
  'QA',
  'SecOps',
  'Slack',
  'e',
  'mail',
  'webhook',
  'PO',
  'Dev',
  'Lead',
  'Criativo',
  'Arquiteto',
];

/** The words the notifier's English dictionaries say and the Portuguese ones never do. */
export const ENGLISH_ONLY = englishOnlyWords(
  [NOTIFICATION_WORDS.en, EMAIL_WORDS.en, SLACK_WORDS.en, DIGEST_WORDS.en],
  [NOTIFICATION_WORDS['pt-BR'], EMAIL_WORDS['pt-BR'], SLACK_WORDS['pt-BR'], DIGEST_WORDS['pt-BR']],
  SHARED,
);
