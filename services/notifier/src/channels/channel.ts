export type ChannelKind = 'email' | 'slack' | 'webhook';
export type NotificationKind = 'question_declared' | 'gate_parked' | 'question_answered' | 'gate_resumed';
/** What a channel renders: everything already resolved, no IO needed. */
export interface Notification {
  id: string;               // the delivery id: stable across retries (dedupe key for receivers; e-mail Message-ID)
  kind: NotificationKind;
  projectId: string;
  recipientUserId: string;
  occurredAt: string;       // ISO
  questions: Array<{ questionId: string; pergunta: string; sugestao: string | null; autor: string;
                     afeta: { regras: string[]; historias: string[]; tarefas: string[] } }>;
  blocks: string[];         // what waits, in words: "QA gate on T-101", "analyst for T-20"
  gate?: { taskId: string; gate: string; trigger?: string };
  links: { open: string; accept?: string }; // inbox card; one-tap accept (may be absent)
}
export class PermanentSendError extends Error {}   // never retried (4xx, bad address)
export class TransientSendError extends Error {}   // retried with backoff
export interface ChannelSender<Target> {
  readonly kind: ChannelKind;
  send(target: Target, notification: Notification): Promise<void>;
}
