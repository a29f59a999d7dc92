import { Controller, HttpCode, Inject, Logger, Post, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import {
  isId,
  NotifierCommand,
  QuestionsCommand,
  SLACK_REASONS,
  SlackReason,
  type AnswerQuestionReply,
} from '@openq/contracts';
import { RpcClient } from '@openq/messaging';
import { guardedRequest, operatorAllowsHost, OutboundError, PublicRoute } from '@openq/platform';
import type { SlackSettings } from '../config';
import { httpError } from '../http/http-error';
import { verifySlackSignature } from './slack-signature';

export const SLACK_SETTINGS = Symbol('openq:slackSettings');
/** The notifier's interactive "Accept suggestion" (services/notifier/src/notifier/adapters/channels/slack.ts). */
export const SLACK_ACCEPT_ACTION = 'openq_accept_suggestion';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const RESPONSE_TIMEOUT_MS = 5_000;

/** The parts of Slack's `block_actions` payload this route reads. */
interface BlockActions {
  type?: string;
  user?: { id?: string };
  response_url?: string;
  actions?: { action_id?: string; value?: string; action_ts?: string }[];
}

/** What the click answers: `{ projectId, questionId }` from the button's value, or null. */
function acceptOf(payload: BlockActions): { projectId: string; questionId: string; actionTs: string } | null {
  const action = payload.actions?.find((a) => a.action_id === SLACK_ACCEPT_ACTION);
  if (!action?.value) return null;
  try {
    const { projectId, questionId } = JSON.parse(action.value) as Record<string, unknown>;
    if (typeof projectId !== 'string' || !isId(projectId)) return null;
    if (typeof questionId !== 'string' || !UUID.test(questionId)) return null;
    return { projectId, questionId, actionTs: action.action_ts ?? '' };
  } catch {
    return null;
  }
}

/**
 * [openq] issue #34 (SPEC §12.5) Slack's interactive callbacks. Only a request signed with the
 * app's signing secret within five minutes passes (else 401 `assinatura_invalida`); a click on
 * "Accept suggestion" answers the question as the openq user who linked that Slack member id in
 * their settings — through the same command as the inbox's click, so only the session author (or
 * their delegate) may — and the Slack message becomes "Answered by …" (its `response_url`, through
 * the guarded client). A member id nobody linked is told, in Slack, where to link it. Slack gets
 * its 200 once that is done; any other action is acknowledged and ignored.
 */
@PublicRoute()
@ApiExcludeController()
@Controller('slack')
export class SlackInteractionsController {
  private readonly logger = new Logger('SlackInteractions');

  constructor(
    @Inject(SLACK_SETTINGS) private readonly settings: SlackSettings,
    private readonly rpc: RpcClient,
  ) {}

  @Post('interactions')
  @HttpCode(200)
  async interactions(@Req() request: FastifyRequest & { rawBody?: Buffer }): Promise<string> {
    const secret = this.settings.signingSecret;
    const header = (name: string) => {
      const value = request.headers[name];
      return typeof value === 'string' ? value : undefined;
    };
    const signed =
      secret !== null &&
      request.rawBody !== undefined &&
      verifySlackSignature(
        secret,
        header('x-slack-request-timestamp'),
        header('x-slack-signature'),
        request.rawBody,
        Math.floor(Date.now() / 1000),
      );
    if (!signed)
      throw httpError(
        SLACK_REASONS.assinatura_invalida.status,
        SlackReason.badSignature,
        secret === null
          ? 'Slack callbacks are off: OPENQ_SLACK_SIGNING_SECRET is not set'
          : 'not signed by Slack (X-Slack-Signature v0), or the timestamp is more than 5 minutes away',
      );
    const raw = new URLSearchParams(request.rawBody!.toString('utf8')).get('payload');
    let payload: BlockActions;
    try {
      payload = JSON.parse(raw ?? '') as BlockActions;
    } catch {
      return '';
    }
    const accept = acceptOf(payload);
    const slackUserId = payload.user?.id;
    if (payload.type !== 'block_actions' || !accept || !slackUserId || !payload.response_url) return '';
    await this.respond(payload.response_url, await this.accept(slackUserId, accept));
    return '';
  }

  /** The click as the linked person; what the Slack message should now say. */
  private async accept(
    slackUserId: string,
    click: { projectId: string; questionId: string; actionTs: string },
  ): Promise<Record<string, unknown>> {
    const who = await this.rpc.request<{ userId: string | null }>(
      NotifierCommand.slackUser.service,
      NotifierCommand.slackUser.verb,
      { slackUserId },
    );
    if (!who.ok) return ephemeral(`openq could not take your answer now (${who.error.message}); try again.`);
    if (who.data.userId === null)
      return ephemeral(
        `Your Slack user (${slackUserId}) is not linked to an openq user yet: add your Slack member id ` +
          `in openq's settings (${this.settings.settingsUrl}), then click again.`,
      );
    const answered = await this.rpc.request<AnswerQuestionReply>(
      QuestionsCommand.answer.service,
      QuestionsCommand.answer.verb,
      {
        projectId: click.projectId,
        questionId: click.questionId,
        userId: who.data.userId,
        aceitarSugestao: true,
        // Slack calls again when it got no 200 in 3 s: the same click is the same answer.
        ...(click.actionTs ? { idempotencyKey: `slack:${click.actionTs}` } : {}),
      },
    );
    if (!answered.ok) return ephemeral(`openq did not take the answer: ${answered.error.message}`);
    return {
      replace_original: true,
      text: `Answered by ${answered.data.respondidaPor}: ${answered.data.resposta}`,
    };
  }

  /** Posts to Slack's `response_url`: https (or an address the operator allows), guarded, bounded. */
  private async respond(responseUrl: string, message: Record<string, unknown>): Promise<void> {
    let url: URL;
    try {
      url = new URL(responseUrl);
    } catch {
      return;
    }
    if (
      url.protocol !== 'https:' &&
      !(url.protocol === 'http:' && operatorAllowsHost(this.settings.outbound, url.hostname))
    ) {
      this.logger.warn(`Slack response_url refused: not https (${url.origin})`);
      return;
    }
    try {
      const { status } = await guardedRequest(
        url.href,
        {
          headers: { 'content-type': 'application/json; charset=utf-8' },
          body: JSON.stringify(message),
          timeoutMs: RESPONSE_TIMEOUT_MS,
        },
        this.settings.outbound,
      );
      if (status >= 300) this.logger.warn(`Slack response_url (${url.origin}) answered ${status}`);
    } catch (error) {
      const detail = error instanceof OutboundError ? `${error.failure}: ${error.detail}` : String(error);
      this.logger.warn(`Slack response_url (${url.origin}) failed: ${detail}`);
    }
  }
}

function ephemeral(text: string): Record<string, unknown> {
  return { response_type: 'ephemeral', replace_original: false, text };
}
