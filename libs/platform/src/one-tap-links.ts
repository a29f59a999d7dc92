import { errors, jwtVerify, SignJWT } from 'jose';
import { v7 as uuidv7 } from 'uuid';
import { isId, isLanguage, isUuid, type Language, type RefusalReason } from '@openq/contracts';

/**
 * [openq] issue #17 one-tap links (SPEC §11.6): a compact token, in the path of a link sent by
 * e-mail or chat, bound to one question, one person and one action. HS256 compact JWS (jose)
 * with `OPENQ_LINK_SECRET` (`OPENQ_LINK_SECRET_PREVIOUS` still verifies during a rotation).
 * Minting and verifying live here only: the notifier mints, the gateway verifies.
 */

/** `accept`: accept the question's suggestion (after a confirm step); `open`: open its card in the inbox. */
export const ONE_TAP_ACTIONS = ['accept', 'open'] as const;
export type OneTapAction = (typeof ONE_TAP_ACTIONS)[number];

/** How long a link lives unless told otherwise: 72 hours. */
export const DEFAULT_LINK_TTL_S = 72 * 3600;

/** Stable reasons of a link the gateway refuses (SPEC §11.6, + `link_invalido`). */
export const LinkReason = {
  expired: 'link_expirado',
  used: 'link_ja_usado',
  invalid: 'link_invalido',
} as const satisfies Record<string, RefusalReason>;

/** What a link is bound to. */
export interface OneTapLink {
  projectId: string;
  questionId: string;
  userId: string;
  action: OneTapAction;
  /** A UUID v7: the link's single-use key and the root of its answer's idempotency key. */
  linkId: string;
  expiresAt: Date;
  /** Issue #30 the recipient's language when the link was minted: its pages speak it. */
  language?: Language;
}

export type OneTapLinkInput = Omit<OneTapLink, 'linkId' | 'expiresAt'> & {
  linkId?: string;
  expiresAt?: Date;
};

export interface MintLinkOptions {
  /** `OPENQ_LINK_SECRET` (the current one). */
  secret: string;
  /** Lifetime when `expiresAt` is not given; default 72 h. */
  ttlS?: number;
  /** Clock, for tests. */
  now?: Date;
}

export type LinkVerification =
  | { ok: true; link: OneTapLink }
  | {
      ok: false;
      reason: (typeof LinkReason)[keyof typeof LinkReason];
      message: string;
      /** An expired link still says its language (its signature held). */
      language?: Language;
    };

/** The token's `typ` and `aud`: a user JWT (or any other token) is never taken for a link. */
const TYP = 'openq-link+jwt';
const AUDIENCE = 'openq:one-tap';

const key = (secret: string): Uint8Array => new TextEncoder().encode(secret);

/** Mints a link token (no padding, URL-safe: it goes into a path as it is). */
export async function mintOneTapLink(input: OneTapLinkInput, options: MintLinkOptions): Promise<string> {
  if (!isId(input.projectId)) throw new Error('projectId must match ^[A-Za-z0-9_-]{1,64}$');
  if (!isUuid(input.questionId)) throw new Error('questionId must be a UUID');
  if (!isId(input.userId)) throw new Error('userId must match ^[A-Za-z0-9_-]{1,64}$');
  if (!(ONE_TAP_ACTIONS as readonly string[]).includes(input.action))
    throw new Error(`action must be one of: ${ONE_TAP_ACTIONS.join(', ')}`);
  if (options.secret === '') throw new Error('the link secret is empty');
  const linkId = input.linkId ?? uuidv7();
  if (!isUuid(linkId)) throw new Error('linkId must be a UUID');
  const nowS = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const exp = input.expiresAt
    ? Math.floor(input.expiresAt.getTime() / 1000)
    : nowS + (options.ttlS ?? DEFAULT_LINK_TTL_S);
  return new SignJWT({
    p: input.projectId,
    q: input.questionId,
    u: input.userId,
    a: input.action,
    ...(input.language ? { l: input.language } : {}),
  })
    .setProtectedHeader({ alg: 'HS256', typ: TYP })
    .setJti(linkId)
    .setAudience(AUDIENCE)
    .setIssuedAt(nowS)
    .setExpirationTime(exp)
    .sign(key(options.secret));
}

/** The absolute URL of a link: `<OPENQ_PUBLIC_URL>/l/<token>`. */
export function linkUrl(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/l/${token}`;
}

/** A token's shape before any crypto: three base64url parts (bounds what reaches jose). */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{10,400}\.[A-Za-z0-9_-]{10,1000}\.[A-Za-z0-9_-]{20,200}$/;

export function looksLikeLinkToken(token: string): boolean {
  return TOKEN_SHAPE.test(token);
}

/**
 * Verifies a link with the accepted secrets (current first, previous during a rotation). A bad
 * signature, a token of another kind, or claims out of shape → `link_invalido`; a good signature
 * past its expiry → `link_expirado`. Never throws for a bad token.
 */
export async function verifyOneTapLink(
  token: string,
  options: { secrets: readonly string[]; now?: Date },
): Promise<LinkVerification> {
  const invalid = (message: string): LinkVerification => ({ ok: false, reason: LinkReason.invalid, message });
  if (!looksLikeLinkToken(token)) return invalid('this link is not an openq link');
  const currentDate = options.now ?? new Date();
  for (const secret of options.secrets) {
    if (secret === '') continue;
    try {
      const { payload } = await jwtVerify(token, key(secret), {
        algorithms: ['HS256'],
        typ: TYP,
        audience: AUDIENCE,
        requiredClaims: ['exp', 'jti'],
        currentDate,
      });
      const { p, q, u, a, l, jti, exp } = payload as Record<string, unknown>;
      if (
        !isId(p) ||
        !isUuid(q) ||
        !isId(u) ||
        !isUuid(jti) ||
        typeof exp !== 'number' ||
        !(ONE_TAP_ACTIONS as readonly unknown[]).includes(a)
      )
        return invalid('this link does not say which question, person and action it is for');
      return {
        ok: true,
        link: {
          projectId: p,
          questionId: q,
          userId: u,
          action: a as OneTapAction,
          linkId: jti,
          expiresAt: new Date(exp * 1000),
          ...(isLanguage(l) ? { language: l } : {}),
        },
      };
    } catch (error) {
      // jose checks the signature before the claims: an expired token was signed by this key.
      if (error instanceof errors.JWTExpired) {
        const l = (error.payload as Record<string, unknown> | undefined)?.l;
        return {
          ok: false,
          reason: LinkReason.expired,
          message: 'this link has expired',
          ...(isLanguage(l) ? { language: l } : {}),
        };
      }
      if (error instanceof errors.JWSSignatureVerificationFailed) continue;
      return invalid('this link is not a valid openq link');
    }
  }
  return invalid('this link is not a valid openq link');
}
