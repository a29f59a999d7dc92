import { Controller, Get, Header, Inject, Param, Req, Res } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { ApiExcludeEndpoint, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PublicRoute } from '@openq/platform';
import { userTokenOf } from '../auth/credentials';
import { JwtVerifier } from '../auth/jwt-verifier';
import { httpError, Reason } from '../http/http-error';
import { identify, type Identification } from './identify';
import { InboxAssets, type Asset } from './inbox-assets';
import { PAGE_LANGUAGES, pageLanguage, type PageLanguage } from './page-language';
import { pageHeaders } from '../http/page-layout';
import { appPage, signInPage, type AppPage } from './pages';

export const INBOX_OPTIONS = Symbol('INBOX_OPTIONS');
export interface InboxOptions {
  /** `/dev/login` exists (outside production, HS256 keys). */
  devLogin: boolean;
  /** SPEC §12.1 the origins that may frame the pending block (`OPENQ_EMBED_ANCESTORS`; empty: none). */
  embedAncestors: readonly string[];
}

/**
 * The web inbox: the page at `/`, its files under `/inbox/`, and `GET /me` (who the token says
 * you are, for the project picker). They belong to no project, so the user guard (which needs a
 * `:projectId`) lets them through as public routes and they check the token themselves.
 */
@PublicRoute()
@ApiTags('inbox')
@Controller()
export class InboxController {
  /** The app's shell in each language. */
  private readonly pages: ReadonlyMap<PageLanguage, AppPage>;
  private verifier: JwtVerifier | null = null;

  constructor(
    private readonly assets: InboxAssets,
    private readonly moduleRef: ModuleRef,
    @Inject(INBOX_OPTIONS) private readonly options: InboxOptions,
  ) {
    this.pages = new Map(PAGE_LANGUAGES.map((lang) => [lang, appPage(assets, options, lang)]));
  }

  @Get()
  @ApiExcludeEndpoint()
  async index(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const who = await this.identify(request);
    const lang = pageLanguage(request.headers);
    // The words follow the person's language: a cache in between must keep them apart.
    void reply.header('vary', 'accept-language, cookie');
    if (who.ok) {
      const page = this.pages.get(lang)!;
      await reply.headers(pageHeaders(true)).send(page.html);
      return;
    }
    await reply.headers(pageHeaders()).send(signInPage(this.assets, who.problem, this.options, lang));
  }

  @Get('me')
  @Header('cache-control', 'no-store')
  @ApiOperation({ summary: 'Who the token says you are: { sub, roles } (any signed-in user)' })
  async me(@Req() request: FastifyRequest): Promise<{ sub: string; roles: Record<string, string> }> {
    const who = await this.identify(request);
    if (who.ok) return { sub: who.user.id, roles: Object.fromEntries(who.user.roles) };
    if (who.problem === 'keys_unavailable')
      throw httpError(503, Reason.serviceUnavailable, 'the token keys are unavailable right now; try again');
    throw httpError(
      401,
      Reason.notAuthenticated,
      who.problem === 'missing'
        ? 'authentication required: send Authorization: Bearer <token>'
        : `authentication failed: ${who.message}`,
    );
  }

  @Get('inbox/:file')
  @ApiExcludeEndpoint()
  file(
    @Param('file') file: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    return this.send(file, request, reply);
  }

  private async send(name: string, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const asset = this.assets.get(name);
    if (!asset) throw httpError(404, Reason.routeNotFound, `no inbox file ${name}`);
    const version = (request.query as { v?: unknown } | undefined)?.v;
    // A URL with the current hash never changes; any other is revalidated.
    const cache = version === asset.version ? 'public, max-age=31536000, immutable' : 'no-cache';
    void reply.headers({
      'content-type': asset.type,
      'cache-control': cache,
      etag: asset.etag,
      vary: 'accept-encoding',
      'x-content-type-options': 'nosniff',
    });
    if (request.headers['if-none-match'] === asset.etag) {
      await reply.status(304).send();
      return;
    }
    await reply.send(bodyFor(asset, request, reply));
  }

  private identify(request: FastifyRequest): Promise<Identification> {
    // The user guard's verifier (AuthModule keeps it to itself): one key cache, one configuration.
    const verifier: JwtVerifier = this.verifier ?? this.moduleRef.get(JwtVerifier, { strict: false });
    this.verifier = verifier;
    return identify(verifier, userTokenOf(request.headers));
  }
}

/** The gzip copy to a browser that takes it (every one does), else the file as is. */
function bodyFor(asset: Asset, request: FastifyRequest, reply: FastifyReply): Buffer {
  const accepts = String(request.headers['accept-encoding'] ?? '');
  if (asset.gzip && /\bgzip\b/.test(accepts)) {
    void reply.header('content-encoding', 'gzip');
    return asset.gzip;
  }
  return asset.body;
}
