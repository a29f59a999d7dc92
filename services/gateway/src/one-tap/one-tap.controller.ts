import { Controller, Get, HttpException, Inject, Param, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  EDGE_REASONS,
  EdgeReason,
  GatesCommand,
  QuestionsCommand,
  type AnswerQuestionReply,
  type Language,
  type OpenQuestionView,
} from '@openq/contracts';
import { LinkReason, PublicRoute, verifyOneTapLink, type OneTapLink } from '@openq/platform';
import { OneTapConfirmForm } from '../http/form-bodies.dto';
import { Reason } from '../http/http-error';
import { CallHeaders, type RpcHeaders } from '../http/rpc-headers.decorator';
import { ServicesClient } from '../http/services-client';
import { checkConfirmToken, makeConfirmToken } from './confirm-token';
import { LinkRegistry } from './link-registry';
import {
  answeredPage,
  cardUrl,
  confirmPage,
  linkPageHeaders,
  refusalPage,
  type LinkQuestion,
  type LinkWait,
  waitLabel,
} from './one-tap-pages';
import { pageLanguage } from '../inbox/page-language';

export const ONE_TAP_SETTINGS = Symbol('openq:oneTapSettings');
export interface OneTapSettings {
  /** The link secrets, current first. */
  secrets: string[];
  /** The longest a link may still live (ms): its single-use mark must outlive it. */
  maxLifetimeMs: number;
  /** openq's public origin (`OPENQ_PUBLIC_URL`'s scheme, host and port): where confirm pages live. */
  publicOrigin: string;
}

/** A refusal of this module: `{ statusCode, reason, message }`, shown as a page to a browser. */
class LinkRefusal extends Error {
  constructor(
    readonly statusCode: number,
    readonly reason: string,
    message: string,
    readonly where: { projectId: string; questionId: string } | null = null,
  ) {
    super(message);
  }
}

/**
 * [openq] issue #17 one-tap links (SPEC §11.6). `GET /l/:token` only shows: a confirm page with
 * the question, its suggestion and one button (or, for an `open` link, a redirect to the card) —
 * a mail scanner's prefetch answers nothing. `POST /l/:token` answers through the same command as
 * the inbox's click (`openq.questions.answer`: the author rule, one answer, `Idempotency-Key`
 * `link:<linkId>`), once per link across replicas (`LinkRegistry`). The link is the credential:
 * no session cookie is read here. Browsers get pages, others `{ statusCode, reason, message }`.
 */
@PublicRoute()
@ApiTags('one-tap links')
@Controller('l')
export class OneTapController {
  constructor(
    private readonly services: ServicesClient,
    private readonly registry: LinkRegistry,
    @Inject(ONE_TAP_SETTINGS) private readonly settings: OneTapSettings,
  ) {}

  @Get(':token')
  @ApiOperation({
    summary:
      '[openq] issue #17 a one-tap link (SPEC §11.6): `open` → 303 to the card in the inbox; `accept` → the ' +
      'confirm page (HTML for a browser, else JSON with its `confirm` field). Nothing is answered by a GET. ' +
      'Refused: 410 link_expirado, 409 link_ja_usado, 403 link_invalido, pergunta_* (a page, or the error body)',
  })
  async show(
    @Param('token') token: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @CallHeaders() headers: RpcHeaders,
  ): Promise<void> {
    const speaks: Speaks = { language: pageLanguage(request.headers) };
    await this.respond(request, reply, speaks, async () => {
      const link = await this.verify(token, speaks);
      const where = { projectId: link.projectId, questionId: link.questionId };
      if (link.action === 'open') {
        await reply
          .status(303)
          .headers(linkPageHeaders())
          .header('location', cardUrl(link.projectId, link.questionId))
          .send();
        return;
      }
      if ((await this.registry.state(link.linkId).catch(() => null)) === 'used')
        throw new LinkRefusal(409, LinkReason.used, 'this link was already used', where);
      const view = await this.openQuestion(link, headers);
      const question = await this.describe(view, headers);
      const confirm = makeConfirmToken(this.settings.secrets[0]!, link.linkId, Date.now());
      if (!wantsHtml(request)) {
        await reply
          .status(200)
          .headers(linkPageHeaders())
          .header('content-type', 'application/json; charset=utf-8')
          .send({
            ...question,
            // As before issue #30: what waits, in English words ("QA gate on T-101").
            waiting: question.waiting.map((w) => waitLabel(w, 'en')),
            action: link.action,
            userId: link.userId,
            expiresAt: link.expiresAt.toISOString(),
            canAnswer: view.canAnswer,
            inertReason: view.inertReason,
            confirm,
          });
        return;
      }
      const html = confirmPage(
        question,
        {
          confirm,
          userId: link.userId,
          expiresAt: link.expiresAt,
          canAnswer: view.canAnswer,
          inertReason: view.inertReason,
        },
        speaks.language,
      );
      await reply.status(200).headers(linkPageHeaders()).send(html);
    });
  }

  @Post(':token')
  @ApiOperation({
    summary:
      '[openq] issue #17 answer by link: accepts the suggestion, once, from its confirm page (same origin, ' +
      '`confirm` less than an hour old; 403 confirmacao_invalida / origem_nao_confiavel)',
  })
  @ApiConsumes('application/x-www-form-urlencoded', 'application/json')
  @ApiBody({ type: OneTapConfirmForm })
  async answer(
    @Param('token') token: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @CallHeaders() headers: RpcHeaders,
  ): Promise<void> {
    const speaks: Speaks = { language: pageLanguage(request.headers) };
    await this.respond(request, reply, speaks, async () => {
      const link = await this.verify(token, speaks);
      const where = { projectId: link.projectId, questionId: link.questionId };
      if (link.action !== 'accept')
        throw new LinkRefusal(
          400,
          LinkReason.invalid,
          'this link only opens the question in the inbox',
          where,
        );
      const site = request.headers['sec-fetch-site'];
      if (
        site === 'cross-site' ||
        site === 'same-site' ||
        !fromOpenqOrigin(request, this.settings.publicOrigin)
      )
        throw new LinkRefusal(
          EDGE_REASONS.origem_nao_confiavel.status,
          EdgeReason.untrustedOrigin,
          'an answer by link must come from its confirm page',
          where,
        );
      const confirm = (request.body as { confirm?: unknown } | null | undefined)?.confirm;
      if (!checkConfirmToken(this.settings.secrets, link.linkId, confirm, Date.now()))
        throw new LinkRefusal(
          403,
          'confirmacao_invalida',
          'send the confirm field of the link page (GET this link), less than an hour old',
          where,
        );
      let claimed: boolean;
      try {
        claimed = await this.registry.claim(link.linkId);
      } catch {
        throw new LinkRefusal(
          503,
          Reason.serviceUnavailable,
          'cannot check this link right now; try again',
          where,
        );
      }
      if (!claimed) throw new LinkRefusal(409, LinkReason.used, 'this link was already used', where);
      // For the page afterwards: the question's words and what waits on it, read before it closes.
      const before = wantsHtml(request)
        ? await this.findOpenOrNull(link, headers)
            .then((v) => (v ? this.describe(v, headers) : null))
            .catch(() => null)
        : null;
      let answered: AnswerQuestionReply;
      try {
        answered = await this.services.ask(
          QuestionsCommand.answer,
          {
            projectId: link.projectId,
            questionId: link.questionId,
            userId: link.userId,
            aceitarSugestao: true,
            idempotencyKey: `link:${link.linkId}`,
          },
          headers,
        );
      } catch (error) {
        // Only an answer recorded uses the link up: a refusal or an outage leaves it to try again.
        await this.registry.release(link.linkId).catch(() => undefined);
        const refusal = asRefusal(error);
        throw refusal ? new LinkRefusal(refusal.statusCode, refusal.reason, refusal.message, where) : error;
      }
      await this.registry.markUsed(link.linkId).catch(() => undefined);
      if (!wantsHtml(request)) {
        await reply
          .status(200)
          .headers(linkPageHeaders())
          .header('content-type', 'application/json; charset=utf-8')
          .send(answered);
        return;
      }
      const question: LinkQuestion = before ?? {
        ...where,
        pergunta: '',
        sugestao: null,
        autor: '',
        waiting: [],
      };
      await reply
        .status(200)
        .headers(linkPageHeaders())
        .send(answeredPage(question, answered.resposta, speaks.language));
    });
  }

  /** The link, or its refusal; either way its pages speak the language it says (issue #30). */
  private async verify(token: string, speaks: Speaks): Promise<OneTapLink> {
    const verified = await verifyOneTapLink(token, { secrets: this.settings.secrets });
    const said = verified.ok ? verified.link.language : verified.language;
    if (said) speaks.language = said;
    if (verified.ok) {
      if (verified.link.expiresAt.getTime() - Date.now() > this.settings.maxLifetimeMs)
        throw new LinkRefusal(
          403,
          LinkReason.invalid,
          'this link claims to live longer than openq keeps links',
        );
      return verified.link;
    }
    const status = verified.reason === LinkReason.expired ? 410 : 403;
    throw new LinkRefusal(status, verified.reason, verified.message);
  }

  /** The question while it is open (as the link's person sees it), else why not. */
  private async openQuestion(link: OneTapLink, headers: RpcHeaders): Promise<OpenQuestionView> {
    const where = { projectId: link.projectId, questionId: link.questionId };
    const open = await this.findOpenOrNull(link, headers);
    if (open) return open;
    const status = await this.services.ask(
      QuestionsCommand.status,
      { projectId: link.projectId, questionIds: [link.questionId] },
      headers,
    );
    switch (status.items[0]?.status) {
      case 'answered':
        throw new LinkRefusal(
          409,
          'pergunta_ja_respondida',
          'this question has already been answered',
          where,
        );
      case 'withdrawn':
        throw new LinkRefusal(
          409,
          'pergunta_retirada',
          'this question was withdrawn: it no longer needs an answer',
          where,
        );
      case 'open':
        // Declared, not yet in the list's read model (§11.2): say so rather than refuse.
        throw new LinkRefusal(
          503,
          Reason.serviceUnavailable,
          'this question is still being recorded; try again in a moment',
          where,
        );
      default:
        throw new LinkRefusal(404, 'pergunta_nao_encontrada', 'no such question in this project', where);
    }
  }

  /** One question by id from the list read model: asked first, limit 1 (`first` ranks it). */
  private async findOpenOrNull(link: OneTapLink, headers: RpcHeaders): Promise<OpenQuestionView | null> {
    const list = await this.services.ask(
      QuestionsCommand.list,
      {
        projectId: link.projectId,
        userId: link.userId,
        status: 'open',
        limit: 1,
        first: [link.questionId],
      },
      headers,
    );
    const item = list.items[0];
    return item && item.questionId === link.questionId ? item : null;
  }

  /** The question's words and the gates waiting on it ("QA gate on T-101"), when the gates service says. */
  private async describe(view: OpenQuestionView, headers: RpcHeaders): Promise<LinkQuestion> {
    const blocking = await this.services
      .ask(GatesCommand.blocking, { projectId: view.projectId }, headers)
      .catch(() => null);
    const blocks = blocking?.items.find((b) => b.questionId === view.questionId)?.blocks ?? [];
    const waiting: LinkWait[] = blocks.map((b) => ({ gate: b.gate ?? null, taskId: b.taskId }));
    return {
      projectId: view.projectId,
      questionId: view.questionId,
      pergunta: view.pergunta,
      sugestao: view.sugestao,
      autor: view.autor,
      waiting,
    };
  }

  /** Runs `work`; a refusal (ours or a service's) becomes a page for a browser, JSON otherwise. */
  private async respond(
    request: FastifyRequest,
    reply: FastifyReply,
    speaks: Speaks,
    work: () => Promise<void>,
  ): Promise<void> {
    try {
      await work();
    } catch (error) {
      const refusal = asRefusal(error);
      if (!refusal) throw error;
      void reply.status(refusal.statusCode).headers(linkPageHeaders());
      if (!wantsHtml(request)) {
        await reply.header('content-type', 'application/json; charset=utf-8').send({
          statusCode: refusal.statusCode,
          reason: refusal.reason,
          message: refusal.message,
        });
        return;
      }
      await reply.send(refusalPage(refusal.reason, refusal.message, refusal.where, speaks.language));
    }
  }
}

/**
 * The language of a link's pages: the one the link says (the recipient's, as the notifier minted
 * it), else the browser's (`openq_lang` cookie, `Accept-Language`), else English.
 */
interface Speaks {
  language: Language;
}

function asRefusal(error: unknown): LinkRefusal | null {
  if (error instanceof LinkRefusal) return error;
  if (error instanceof HttpException) {
    const body = error.getResponse() as { reason?: unknown; message?: unknown };
    if (typeof body === 'object' && body && typeof body.reason === 'string')
      return new LinkRefusal(error.getStatus(), body.reason, String(body.message ?? body.reason));
  }
  return null;
}

/**
 * [openq] issue #27 (SPEC §12.2) where a browser says the POST came from: `Origin`, or without it
 * the `Referer`'s origin, must be openq's — its public origin, or the origin the request was sent
 * to (a deployment reached by a second name, a laptop on 127.0.0.1 while links say localhost; a
 * page of another site cannot make a browser claim either). Neither header (a client that is not
 * a browser): nothing to judge, the confirm field still has to match. `Origin: null` is what a
 * browser sends for the confirm page's own form (its `Referrer-Policy: no-referrer` hides the
 * origin too), and also what a sandboxed or `data:` page sends: it passes only with
 * `Sec-Fetch-Site: same-origin`, which no page of another origin can make a browser send.
 */
export function fromOpenqOrigin(request: FastifyRequest, publicOrigin: string): boolean {
  const origin = request.headers.origin;
  const referer = request.headers.referer;
  let claimed: string;
  if (typeof origin === 'string') claimed = origin.trim();
  else if (typeof referer === 'string') claimed = originOf(referer) ?? '';
  else return true;
  if (claimed === 'null') return request.headers['sec-fetch-site'] === 'same-origin';
  if (claimed === '') return false;
  const own = originOf(`${request.protocol}://${request.host}`);
  return claimed === publicOrigin || (own !== null && claimed === own);
}

function originOf(url: string): string | null {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

/** A browser navigating (Accept names text/html) gets pages; anything else JSON. */
function wantsHtml(request: FastifyRequest): boolean {
  return /\btext\/html\b/.test(String(request.headers.accept ?? ''));
}
