import { Controller, Get, Inject, Param, Req, Res } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { ApiExcludeEndpoint } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ID_PATTERN } from '@openq/contracts';
import { PublicRoute } from '@openq/platform';
import { userTokenOf } from '../auth/credentials';
import { JwtVerifier } from '../auth/jwt-verifier';
import { identify } from './identify';
import { InboxAssets } from './inbox-assets';
import { INBOX_OPTIONS, type InboxOptions } from './inbox.controller';
import { PAGE_LANGUAGES, pageLanguage, type PageLanguage } from './page-language';
import { pageHeaders } from '../http/page-layout';
import { embedPage, embedRefusalPage, type AppPage } from './pages';

/**
 * SPEC §12.1 the embeddable pending block: `GET /embed/projects/:projectId/pending`, the caller's
 * waiting block and the project's open questions, for a chat to frame (ADR 0214 §9: the queue
 * "in the chat's pending block"). Signed in as the inbox is (the `openq_token` cookie, or a
 * bearer token), with a role on the project. Its CSP lets the origins of `OPENQ_EMBED_ANCESTORS`
 * frame it, and no one when that is unset; every other page keeps `frame-ancestors 'none'`.
 * Refusals are pages too (the frame shows why), framable by the same origins.
 */
@PublicRoute()
@Controller()
export class EmbedController {
  private readonly pages: ReadonlyMap<PageLanguage, AppPage>;
  private verifier: JwtVerifier | null = null;

  constructor(
    private readonly assets: InboxAssets,
    private readonly moduleRef: ModuleRef,
    @Inject(INBOX_OPTIONS) private readonly options: InboxOptions,
  ) {
    this.pages = new Map(PAGE_LANGUAGES.map((lang) => [lang, embedPage(assets, lang)]));
  }

  @Get('embed/projects/:projectId/pending')
  @ApiExcludeEndpoint()
  async pending(
    @Param('projectId') projectId: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const lang = pageLanguage(request.headers);
    const frameAncestors = this.options.embedAncestors;
    // The words and the person differ by cookie and language: a cache in between must keep them apart.
    void reply.header('vary', 'accept-language, cookie, authorization');
    const verifier: JwtVerifier = this.verifier ?? this.moduleRef.get(JwtVerifier, { strict: false });
    this.verifier = verifier;
    const who = await identify(verifier, userTokenOf(request.headers));
    if (!who.ok) {
      await reply
        .status(who.problem === 'keys_unavailable' ? 503 : 401)
        .headers(pageHeaders(false, frameAncestors))
        .send(embedRefusalPage(this.assets, lang, { problem: who.problem }));
      return;
    }
    // An id that is not one is nobody's project: the same refusal, no echo of what was sent.
    const role = ID_PATTERN.test(projectId) ? who.user.roles.get(projectId) : undefined;
    if (!role) {
      await reply
        .status(403)
        .headers(pageHeaders(false, frameAncestors))
        .send(
          embedRefusalPage(this.assets, lang, {
            noRoleOn: ID_PATTERN.test(projectId) ? projectId : '?',
          }),
        );
      return;
    }
    const page = this.pages.get(lang)!;
    await reply.headers(pageHeaders(true, frameAncestors)).send(page.html);
  }
}
