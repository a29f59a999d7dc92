import type { Notification } from '../channel';

/**
 * A realistic notification, for the channels' specs and for previewing a template by hand
 * (`renderEmail(sampleNotification())`). `overrides` replace top-level fields.
 */
export function sampleNotification(overrides: Partial<Notification> = {}): Notification {
  return {
    id: 'd-7f3c2a10-5b1e-4c8e-9d7a-2f4e6b8c0a11',
    kind: 'gate_parked',
    projectId: 'acme',
    recipientUserId: 'u-ana',
    occurredAt: '2026-12-01T14:20:00.000Z',
    questions: [
      {
        questionId: 'q-1',
        pergunta: 'Should refunds above R$ 500 need a second approval?',
        sugestao: 'Yes: above R$ 500 a second approver from finance confirms.',
        autor: 'qa-agent',
        afeta: { regras: ['RN-7'], historias: ['S-12'], tarefas: ['T-101'] },
      },
    ],
    blocks: ['QA gate on T-101'],
    gate: { taskId: 'T-101', gate: 'qa' },
    links: {
      open: 'https://openq.example.com/projects/acme/inbox#q-1',
      accept: 'https://openq.example.com/l/accept/tok-123',
    },
    ...overrides,
  };
}
