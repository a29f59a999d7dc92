import { createHmac, sign, type KeyObject } from 'node:crypto';

/** Test helper: signs arbitrary claims/headers, including tokens the gateway must refuse. */
export type SigningKey =
  { alg: 'HS256'; secret: string } | { alg: 'RS256' | 'ES256'; privateKey: KeyObject; kid?: string };

const b64url = (value: string | Buffer): string => Buffer.from(value).toString('base64url');

export function signJwt(
  claims: Record<string, unknown>,
  key: SigningKey,
  header: Record<string, unknown> = {},
): string {
  const fullHeader = {
    alg: key.alg,
    typ: 'JWT',
    ...('kid' in key && key.kid ? { kid: key.kid } : {}),
    ...header,
  };
  const input = `${b64url(JSON.stringify(fullHeader))}.${b64url(JSON.stringify(claims))}`;
  let signature: Buffer;
  if (key.alg === 'HS256') signature = createHmac('sha256', key.secret).update(input).digest();
  else if (key.alg === 'RS256') signature = sign('sha256', Buffer.from(input), key.privateKey);
  else signature = sign('sha256', Buffer.from(input), { key: key.privateKey, dsaEncoding: 'ieee-p1363' });
  return `${input}.${b64url(signature)}`;
}

/** Claims of a token valid for an hour from `nowS`. */
export function claimsFor(
  sub: string,
  roles: Record<string, string>,
  nowS = Math.floor(Date.now() / 1000),
): Record<string, unknown> {
  return { sub, roles, iat: nowS, exp: nowS + 3600 };
}
