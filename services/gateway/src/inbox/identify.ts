import { JwtRejected, KeysUnavailable, type JwtVerifier } from '../auth/jwt-verifier';
import type { UserIdentity } from '../auth/roles';

export type Identification =
  | { ok: true; user: UserIdentity }
  | { ok: false; problem: 'missing' | 'rejected' | 'keys_unavailable'; message: string };

/**
 * Who holds this token, for the routes that belong to no project (`/`, `/me`): the same
 * verification as the user guard, without its project and role checks.
 */
export async function identify(verifier: JwtVerifier, token: string | null): Promise<Identification> {
  if (!token) return { ok: false, problem: 'missing', message: 'no token was sent' };
  try {
    return { ok: true, user: await verifier.verify(token) };
  } catch (error) {
    if (error instanceof JwtRejected) return { ok: false, problem: 'rejected', message: error.message };
    if (error instanceof KeysUnavailable)
      return { ok: false, problem: 'keys_unavailable', message: error.message };
    throw error;
  }
}
