import { verifyOneTapLink } from '@openq/platform';
import type { Notification } from '../../adapters/channels/channel';
import { leadLine } from '../../adapters/channels/templates/wording';
import { withOneTapLinks } from './links';

const SECRET = 'links-spec-secret-0123456789abcdef';
const settings = { publicUrl: 'https://openq.example.com/', secret: SECRET, ttlS: 3600 };
const Q = '0190a3b8-7c1d-7e2f-9a3b-000000000001';

function notification(kind: Notification['kind'], sugestao: string | null): Notification {
  return {
    id: '0190a3b8-7c1d-7e2f-8a3b-000000000001',
    kind,
    projectId: 'p1',
    recipientUserId: 'ana',
    occurredAt: '2026-12-01T10:00:00Z',
    questions: [
      {
        questionId: Q,
        pergunta: 'X?',
        sugestao,
        autor: 'arquiteto',
        afeta: { regras: [], historias: [], tarefas: [] },
      },
    ],
    blocks: [],
    links: { open: 'https://openq.example.com/?project=p1' },
  };
}

const tokenOf = (url: string) => url.replace('https://openq.example.com/l/', '');

describe('withOneTapLinks', () => {
  it.each(['question_declared', 'gate_parked'] as const)(
    '%s with a suggestion: signed accept and open links for the recipient and the question',
    async (kind) => {
      const now = new Date();
      const n = await withOneTapLinks(notification(kind, 'Yes'), settings, now);
      expect(n.links.accept).toMatch(/^https:\/\/openq\.example\.com\/l\/[\w-]+\.[\w-]+\.[\w-]+$/);
      for (const [url, action] of [
        [n.links.accept!, 'accept'],
        [n.links.open, 'open'],
      ] as const) {
        const v = await verifyOneTapLink(tokenOf(url), { secrets: [SECRET], now });
        expect(v).toMatchObject({
          ok: true,
          link: { projectId: 'p1', questionId: Q, userId: 'ana', action },
        });
      }
      expect(n.id).toBe(notification(kind, 'Yes').id);
    },
  );

  it.each([
    ['question_declared', null],
    ['question_answered', 'Yes'],
    ['gate_resumed', 'Yes'],
    // §12.1 an escalation goes to someone who is not the author: nothing there answers.
    ['question_escalated', 'Yes'],
  ] as const)('%s with suggestion %j: an open link only', async (kind, sugestao) => {
    const n = await withOneTapLinks(notification(kind, sugestao), settings);
    expect(n.links.accept).toBeUndefined();
    expect(n.links.open).toMatch(/^https:\/\/openq\.example\.com\/l\//);
  });

  it('a retry mints a fresh link (a new linkId), the delivery id unchanged', async () => {
    const a = await withOneTapLinks(notification('question_declared', 'Yes'), settings);
    const b = await withOneTapLinks(notification('question_declared', 'Yes'), settings);
    expect(a.links.accept).not.toBe(b.links.accept);
    expect(a.id).toBe(b.id);
  });

  it('an escalation tells its reader that only the author answers (SPEC §12.1: no one else is told they can)', async () => {
    const n = await withOneTapLinks(
      { ...notification('question_escalated', 'Yes'), recipientUserId: 'maria' },
      settings,
    );
    expect(leadLine(n)).toMatch(/Only the author can answer\.$/);
    expect(n.links.accept).toBeUndefined();
  });

  it('a notification without a question keeps its links', async () => {
    const n = { ...notification('gate_resumed', null), questions: [] };
    expect(await withOneTapLinks(n, settings)).toBe(n);
  });
});
