import { PermanentSendError } from './channel';
import {
  DEFAULT_RETRY_AFTER_MS,
  escapeSlack,
  redactWebhookUrl,
  renderSlack,
  retryAfterMs,
  SLACK_ACCEPT_ACTION,
  SLACK_LIMITS,
  SlackSender,
  type SlackBlock,
} from './slack';
import { sampleNotification } from './templates/sample-notification';

const texts = (blocks: SlackBlock[]) =>
  blocks.flatMap((b) =>
    'text' in b
      ? [b.text.text]
      : 'elements' in b && b.type === 'context'
        ? b.elements.map((e) => e.text)
        : [],
  );

describe('renderSlack', () => {
  it('builds header, lead, question, suggestion quote, blocks and the two URL buttons', () => {
    const message = renderSlack(sampleNotification());
    expect(message).toEqual({
      text: 'QA gate on T-101 is waiting for your decision: Should refunds above R$ 500 need a second approval?',
      blocks: [
        {
          type: 'header',
          text: { type: 'plain_text', text: 'QA gate on T-101 is waiting for your decision', emoji: false },
        },
        {
          type: 'context',
          elements: [
            { type: 'mrkdwn', text: 'Project *acme* · The gate parked until these questions are answered.' },
          ],
        },
        {
          type: 'section',
          text: {
            type: 'mrkdwn',
            text:
              '*Should refunds above R$ 500 need a second approval?*\n' +
              'Asked by the QA agent · Affects: rules RN-7; stories S-12; tasks T-101',
          },
        },
        {
          type: 'context',
          elements: [
            {
              type: 'mrkdwn',
              text: '>*Suggestion:* Yes: above R$ 500 a second approver from finance confirms.',
            },
          ],
        },
        { type: 'section', text: { type: 'mrkdwn', text: '*Blocks:* QA gate on T-101' } },
        {
          type: 'actions',
          elements: [
            {
              type: 'button',
              action_id: 'openq_accept',
              text: { type: 'plain_text', text: 'Accept suggestion' },
              url: 'https://openq.example.com/l/accept/tok-123',
              style: 'primary',
            },
            {
              type: 'button',
              action_id: 'openq_open',
              text: { type: 'plain_text', text: 'Open in openq' },
              url: 'https://openq.example.com/projects/acme/inbox#q-1',
            },
          ],
        },
      ],
    });
  });

  it('makes "Accept suggestion" a button Slack calls back with when interactivity is on (issue #34)', () => {
    const n = sampleNotification();
    const buttons = (m: ReturnType<typeof renderSlack>) =>
      m.blocks.flatMap((b) => (b.type === 'actions' ? b.elements : []));
    const [accept, open] = buttons(renderSlack(n, { interactive: true }));
    expect(accept).toEqual({
      type: 'button',
      action_id: SLACK_ACCEPT_ACTION,
      text: { type: 'plain_text', text: 'Accept suggestion' },
      value: JSON.stringify({ projectId: n.projectId, questionId: n.questions[0]!.questionId }),
      style: 'primary',
    });
    expect(open).toMatchObject({ action_id: 'openq_open', url: n.links.open });
    // Without an accept link (nothing to accept), no button either.
    const without = renderSlack({ ...n, links: { open: n.links.open } }, { interactive: true });
    expect(buttons(without).map((b) => b.action_id)).toEqual(['openq_open']);
  });

  it("escapes &, < and > so nobody's text can mention @channel or forge a link", () => {
    const n = sampleNotification({
      kind: 'question_declared',
      gate: undefined,
      questions: [
        {
          questionId: 'q',
          pergunta: 'Ping <!channel> & <https://evil.example|click>?',
          sugestao: 'a > b\nc < d',
          autor: 'arquiteto',
          afeta: { regras: [], historias: [], tarefas: [] },
        },
      ],
      links: { open: 'https://o.example/i' },
    });
    const message = renderSlack(n);
    // plain_text (the header, button labels) is shown as is, never parsed: only mrkdwn is escaped.
    const all = [message.text, ...texts(message.blocks.slice(1))].join('\n');
    expect(all).not.toMatch(/<!channel>|<https:/);
    expect(message.blocks[0]).toEqual({
      type: 'header',
      text: {
        type: 'plain_text',
        text: 'Decision needed: Ping <!channel> & <https://evil.example|click>?',
        emoji: false,
      },
    });
    expect(all).toContain('Ping &lt;!channel&gt; &amp; &lt;https://evil.example|click&gt;?');
    expect(texts(message.blocks)).toContain('>*Suggestion:* a &gt; b\n>c &lt; d');
    expect(message.text).toBe(
      'Decision needed: Ping &lt;!channel&gt; &amp; &lt;https://evil.example|click&gt;?',
    );
    // no accept link → one button, primary-less
    const actions = message.blocks.find((b) => b.type === 'actions');
    expect(actions).toEqual({
      type: 'actions',
      elements: [
        {
          type: 'button',
          action_id: 'openq_open',
          text: { type: 'plain_text', text: 'Open in openq' },
          url: 'https://o.example/i',
        },
      ],
    });
    expect(escapeSlack('&<>*_')).toBe('&amp;&lt;&gt;*_');
  });

  it("keeps within Slack's limits: 3000 per text, 150 per header, 50 blocks", () => {
    const long = '<'.repeat(5000);
    const questions = Array.from({ length: 40 }, (_, i) => ({
      questionId: `q-${i}`,
      pergunta: long,
      sugestao: long,
      autor: 'po',
      afeta: { regras: [], historias: [], tarefas: [] },
    }));
    const message = renderSlack(
      sampleNotification({ kind: 'question_declared', gate: undefined, questions, blocks: [long] }),
    );
    expect(message.blocks.length).toBeLessThanOrEqual(SLACK_LIMITS.blocks);
    expect(message.blocks[0]).toMatchObject({ type: 'header' });
    expect((message.blocks[0] as { text: { text: string } }).text.text.length).toBeLessThanOrEqual(150);
    for (const text of texts(message.blocks)) {
      expect(text.length).toBeLessThanOrEqual(3000);
      expect(text).not.toMatch(/&[a-z]{0,3}…/); // never half an entity
    }
    expect(texts(message.blocks)).toContain('…and 18 more questions in openq.');
    expect(message.blocks.at(-1)).toMatchObject({ type: 'actions' });
    expect(message.text.length).toBeLessThanOrEqual(4000);
  });

  it('words each kind as the e-mail does', () => {
    const header = (n: ReturnType<typeof sampleNotification>) =>
      (renderSlack(n).blocks[0] as { text: { text: string } }).text.text;
    expect(header(sampleNotification({ kind: 'gate_resumed', gate: { taskId: 'T-101', gate: 'qa' } }))).toBe(
      'QA gate on T-101 resumed with your decision',
    );
    expect(header(sampleNotification({ kind: 'question_answered', gate: undefined }))).toBe(
      'Answered: Should refunds above R$ 500 need a second approval?',
    );
  });
});

describe('retryAfterMs', () => {
  const now = new Date('2026-12-01T12:00:00Z');
  it('reads seconds or an HTTP date, and falls back to a default', () => {
    expect(retryAfterMs('7', now)).toBe(7000);
    expect(retryAfterMs('Tue, 01 Dec 2026 12:00:30 GMT', now)).toBe(30000);
    expect(retryAfterMs('Tue, 01 Dec 2026 11:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs(null, now)).toBe(DEFAULT_RETRY_AFTER_MS);
    expect(retryAfterMs('soon', now)).toBe(DEFAULT_RETRY_AFTER_MS);
    expect(retryAfterMs('999999', now)).toBe(3_600_000);
  });
});

describe('the webhook URL is a secret', () => {
  const secret = 'https://hooks.slack.com/services/T000/B000/XXXXsecretXXXX';

  it('is redacted to its origin', () => {
    expect(redactWebhookUrl(secret)).toBe('https://hooks.slack.com/***');
    expect(redactWebhookUrl('not a url XXXXsecretXXXX')).toBe('***');
  });

  it('is refused without being echoed when it is not https', async () => {
    const sender = new SlackSender();
    const error = await sender
      .send({ webhookUrl: 'http://hooks.slack.com/services/T000/B000/XXXXsecretXXXX' }, sampleNotification())
      .then(
        () => null,
        (e: Error) => e,
      );
    expect(error).toBeInstanceOf(PermanentSendError);
    expect(error).toMatchObject({ reason: 'webhook_invalido' });
    expect(error?.message).not.toContain('XXXXsecretXXXX');
  });
});
