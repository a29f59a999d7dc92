import type { KeyObject } from 'node:crypto';
import { CompactSign, UnsecuredJWT, type CompactJWSHeaderParameters } from 'jose';

/** Test helper: signs arbitrary claims/headers with jose, including tokens the gateway must refuse. */
export type SigningKey =
  { alg: 'HS256'; secret: string } | { alg: 'RS256' | 'ES256'; privateKey: KeyObject; kid?: string };

/**
 * A compact JWS over exactly these claims (no defaults added, `undefined` claims left out) and this
 * header (merged over `{ alg, typ: 'JWT', kid? }`). Odd tokens:
 * - a wrong signature: sign with another key;
 * - `{ alg: 'none' }`: an unsecured JWT (jose's `UnsecuredJWT`; any other header field is dropped);
 * - `{ crit: ['x'], x: … }`: the critical extension is declared to jose as understood, so that it
 *   signs it; the gateway does not understand it and must refuse the token.
 */
export async function signJwt(
  claims: Record<string, unknown>,
  key: SigningKey,
  header: Record<string, unknown> = {},
): Promise<string> {
  if (header.alg === 'none') return new UnsecuredJWT(claims).encode();
  const protectedHeader = {
    alg: key.alg,
    typ: 'JWT',
    ...('kid' in key && key.kid ? { kid: key.kid } : {}),
    ...header,
  } as CompactJWSHeaderParameters;
  const crit = Array.isArray(header.crit)
    ? Object.fromEntries((header.crit as string[]).map((name) => [name, true]))
    : undefined;
  return new CompactSign(new TextEncoder().encode(JSON.stringify(claims)))
    .setProtectedHeader(protectedHeader)
    .sign(key.alg === 'HS256' ? new TextEncoder().encode(key.secret) : key.privateKey, crit ? { crit } : {});
}

/** Claims of a token valid for an hour from `nowS`. */
export function claimsFor(
  sub: string,
  roles: Record<string, string>,
  nowS = Math.floor(Date.now() / 1000),
): Record<string, unknown> {
  return { sub, roles, iat: nowS, exp: nowS + 3600 };
}
