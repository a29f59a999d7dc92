import { Controller, Get, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isId } from '@openq/contracts';
// The same minting as `openq token`: one way to make a dev token.
import { mintDevToken, PublicRoute } from '@openq/platform';
import { AUTH_COOKIE } from '../auth/credentials';
import { DEV_LOGIN_MAX_PROJECTS, DevLoginFormBody } from '../http/form-bodies.dto';
import { isRole, type Role } from '../auth/roles';
import { InboxAssets } from './inbox-assets';
import { pageHeaders } from '../http/page-layout';
import { devLoginPage, type DevLoginForm } from './pages';

export const DEV_LOGIN_KEYS = Symbol('DEV_LOGIN_KEYS');
export interface DevLoginKeys {
  secret: string;
  issuer: string | null;
  audience: string | null;
}

/** The token's lifetime and the cookie's. */
const TTL_S = 8 * 3600;

/**
 * Development sign-in (never registered in production, nor when tokens come from a JWKS):
 * a form, and a one-click link `/dev/login?user=ana&project=demo&role=developer`, that mint a
 * token with `mintDevToken` (the CLI's), keep it in the HttpOnly `openq_token` cookie and send
 * the browser to the inbox.
 */
@PublicRoute()
@ApiTags('development')
@Controller('dev')
export class DevLoginController {
  constructor(
    private readonly assets: InboxAssets,
    @Inject(DEV_LOGIN_KEYS) private readonly keys: DevLoginKeys,
  ) {}

  @Get('login')
  @ApiOperation({
    summary:
      'Development only (absent in production and with a JWKS): the sign-in form, or with ?user=&project=&role= ' +
      'sign in at once: 303 to the inbox with the openq_token cookie',
  })
  async form(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const query = (request.query ?? {}) as Record<string, unknown>;
    if (query.user === undefined && query.project === undefined && query.role === undefined) {
      await this.showForm(reply, { user: '', project: '', role: 'developer', error: null }, 200);
      return;
    }
    await this.signIn(query, request, reply);
  }

  @Post('login')
  @ApiOperation({
    summary:
      'Development only: sign in as the form says; 303 to the inbox with the openq_token cookie, ' +
      'or 400 with the form again and the error in words',
  })
  @ApiConsumes('application/x-www-form-urlencoded', 'application/json')
  @ApiBody({ type: DevLoginFormBody })
  async submit(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const body = request.body;
    await this.signIn(
      typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {},
      request,
      reply,
    );
  }

  @Get('logout')
  @ApiOperation({ summary: 'Development only: forget the openq_token cookie; 303 to /dev/login' })
  async logout(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await reply
      .status(303)
      .header('set-cookie', cookie('', 0, request))
      .header('cache-control', 'no-store')
      .header('location', '/dev/login')
      .send();
  }

  private async signIn(
    fields: Record<string, unknown>,
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<void> {
    const user = text(fields.user);
    const project = text(fields.project);
    // Issue #30: several projects, the same role on each, so that a newcomer reaches "All projects".
    const projects = [...new Set(project.split(/[\s,]+/).filter(Boolean))];
    const role = text(fields.role) || 'developer';
    const form: DevLoginForm = { user, project, role: isRole(role) ? role : 'developer', error: null };
    const error = !isId(user)
      ? 'The user id must be 1 to 64 letters, digits, "_" or "-".'
      : projects.length === 0 || !projects.every(isId)
        ? 'Each project must be 1 to 64 letters, digits, "_" or "-", separated by commas.'
        : projects.length > DEV_LOGIN_MAX_PROJECTS
          ? `At most ${DEV_LOGIN_MAX_PROJECTS} projects at once.`
          : !isRole(role)
            ? 'The role must be viewer, developer, maintainer or owner.'
            : null;
    if (error) {
      await this.showForm(reply, { ...form, error }, 400);
      return;
    }
    const [first, ...more] = projects as [string, ...string[]];
    const token = mintDevToken({
      user,
      project: first,
      role: role as Role,
      moreRoles: Object.fromEntries(more.map((p) => [p, role as Role])),
      secret: this.keys.secret,
      ttl: TTL_S,
      ...(this.keys.issuer ? { issuer: this.keys.issuer } : {}),
      ...(this.keys.audience ? { audience: this.keys.audience } : {}),
    });
    await reply
      .status(303)
      .header('set-cookie', cookie(token, TTL_S, request))
      .header('cache-control', 'no-store')
      .header('location', `/?project=${encodeURIComponent(first)}`)
      .send();
  }

  private async showForm(reply: FastifyReply, form: DevLoginForm, status: number): Promise<void> {
    await reply.status(status).headers(pageHeaders()).send(devLoginPage(this.assets, form));
  }
}

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

/** HttpOnly (no script reads it), SameSite=Lax (not sent on cross-site POSTs), Secure over https. */
function cookie(value: string, maxAgeS: number, request: FastifyRequest): string {
  const secure = request.protocol === 'https' ? '; Secure' : '';
  return `${AUTH_COOKIE}=${value}; Path=/; Max-Age=${maxAgeS}; HttpOnly; SameSite=Lax${secure}`;
}
