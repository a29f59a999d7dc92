import { waitFor } from '@openq/testing';
import { RECEIVERS_ALLOWED, WebhookReceiver } from '@openq/testing/webhook-receiver';
import { slackSignature } from '../../services/gateway/src/slack/slack-signature';
import { Stack } from '../support/stack';

/*
 * Issue #34's "Done when" for Slack (SPEC §12.5): the notifier's Slack message carries an
 * interactive "Accept suggestion"; a callback signed with the app's signing secret answers the
 * question as the openq user who linked the clicking Slack member id, and the message becomes
 * "Answered by …" through its response_url (a local fake of Slack's); an unsigned, wrongly signed
 * or stale callback gets 401 `assinatura_invalida`; a member id nobody linked is told how to link.
 */

const P = 'slack-buttons';
const SECRET = 'slack-signing-secret-for-tests';
let stack: Stack;
let slack: WebhookReceiver;

beforeAll(async () => {
  slack = await WebhookReceiver.start();
  stack = await Stack.start({
    services: ['questions', 'notifier'],
    env: { ...RECEIVERS_ALLOWED, NOTIFIER_POLL_MS: '50', OPENQ_SLACK_SIGNING_SECRET: SECRET },
  });
});
afterAll(async () => {
  await stack?.stop();
  await slack?.stop();
});

/** Slack's callback: `payload=<json>` as a form, signed (or not) at `timestamp`. */
function callback(payload: unknown, options: { timestamp?: number; secret?: string | null } = {}) {
  const body = new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (options.secret !== null) {
    headers['x-slack-request-timestamp'] = String(timestamp);
    headers['x-slack-signature'] = slackSignature(options.secret ?? SECRET, timestamp, body);
  }
  return stack.http('POST', '/slack/interactions', { rawBody: body, headers });
}

const click = (slackUserId: string, value: string, responsePath: string) => ({
  type: 'block_actions',
  user: { id: slackUserId },
  response_url: slack.url(responsePath),
  actions: [{ action_id: 'openq_accept_suggestion', value, action_ts: `${Date.now()}.000100` }],
});

it('a signed click answers as the linked person and the message says so; unsigned or stale → 401', async () => {
  const ana = stack.token('ana', P, 'viewer');
  expect(
    await stack.http('PUT', `/projects/${P}/notification-channels`, {
      token: ana,
      body: { slack: { webhookUrl: slack.url('/slack/ana') } },
    }),
  ).toMatchObject({ status: 200 });
  const declared = await stack.http('POST', `/internal/projects/${P}/open-questions`, {
    service: true,
    body: {
      pergunta: 'Round invoice totals half up or half even?',
      sugestao: 'Half up',
      afeta: { regras: [], historias: [], tarefas: [] },
      sessionId: 'po-1',
      sessionAuthorId: 'ana',
      autor: 'po',
      toolCallId: 'call-slack-1',
    },
  });
  const questionId = (declared.body as { questionId: string }).questionId;

  // The Slack message: "Accept suggestion" is a button Slack calls back with, naming the question.
  const message = await waitFor(() => slack.at('/slack/ana')[0], { what: 'the Slack message' });
  const buttons = (JSON.parse(message.body) as { blocks: { type: string; elements?: unknown[] }[] }).blocks
    .filter((b) => b.type === 'actions')
    .flatMap((b) => b.elements as { action_id: string; value?: string; url?: string }[]);
  const accept = buttons.find((b) => b.action_id === 'openq_accept_suggestion');
  expect(accept).toMatchObject({ value: JSON.stringify({ projectId: P, questionId }) });
  expect(accept?.url).toBeUndefined();
  const value = accept!.value!;

  // Not from Slack: no signature, another secret, a timestamp 6 minutes old (or ahead).
  const refused = { status: 401, body: { reason: 'assinatura_invalida' } };
  const now = Math.floor(Date.now() / 1000);
  expect(await callback(click('U0ANA', value, '/r/0'), { secret: null })).toMatchObject(refused);
  expect(await callback(click('U0ANA', value, '/r/0'), { secret: 'not-the-secret' })).toMatchObject(refused);
  expect(await callback(click('U0ANA', value, '/r/0'), { timestamp: now - 360 })).toMatchObject(refused);
  expect(await callback(click('U0ANA', value, '/r/0'), { timestamp: now + 360 })).toMatchObject(refused);
  expect(slack.at('/r/0')).toHaveLength(0);

  // Signed, but nobody linked U0ANA: the person is told where to link it; nothing is answered.
  expect(await callback(click('U0ANA', value, '/r/1'))).toMatchObject({ status: 200 });
  const unlinked = JSON.parse(slack.at('/r/1')[0]!.body) as { text: string; replace_original: boolean };
  expect(unlinked).toMatchObject({ replace_original: false });
  expect(unlinked.text).toContain('not linked');
  expect(unlinked.text).toContain('?view=settings#settings-slack');

  // Ana links her Slack member id in her settings; another person cannot take it.
  expect(await stack.http('PUT', '/me/slack', { token: ana, body: { slackUserId: 'U0ANA' } })).toMatchObject({
    status: 200,
    body: { userId: 'ana', slackUserId: 'U0ANA' },
  });
  const bia = stack.token('bia', P, 'viewer');
  expect(await stack.http('PUT', '/me/slack', { token: bia, body: { slackUserId: 'U0ANA' } })).toMatchObject({
    status: 409,
    body: { reason: 'slack_ja_vinculado' },
  });
  expect((await stack.http('PUT', '/me/slack', { token: bia, body: { slackUserId: 'bia' } })).status).toBe(
    400,
  );

  // Bia links her own id and clicks: she is not the session author, so nothing is answered.
  await stack.http('PUT', '/me/slack', { token: bia, body: { slackUserId: 'U0BIA' } });
  expect(await callback(click('U0BIA', value, '/r/2'))).toMatchObject({ status: 200 });
  expect(JSON.parse(slack.at('/r/2')[0]!.body)).toMatchObject({ replace_original: false });

  // Ana's click answers as ana, with the suggestion, and the message becomes "Answered by ana".
  expect(await callback(click('U0ANA', value, '/r/3'))).toMatchObject({ status: 200 });
  expect(JSON.parse(slack.at('/r/3')[0]!.body)).toEqual({
    replace_original: true,
    text: 'Answered by ana: Half up',
  });
  const list = await stack.http('GET', `/projects/${P}/open-questions?status=answered`, { token: ana });
  expect(list.body.items).toMatchObject([
    { questionId, status: 'answered', resposta: 'Half up', aceitouSugestao: true, respondidaPor: 'ana' },
  ]);
});
