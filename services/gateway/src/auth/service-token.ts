import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

/**
 * Compares a presented service token with the accepted ones (current, and previous during a
 * rotation) in constant time: both sides are hashed to equal-length digests so
 * `timingSafeEqual` applies and the token length does not leak, and every accepted token is
 * compared (no early exit) so which one matched does not leak either.
 */
export class ServiceTokenMatcher {
  private readonly accepted: Buffer[];

  constructor(tokens: readonly string[]) {
    this.accepted = tokens.filter((t) => t !== '').map(digest);
    if (this.accepted.length === 0) throw new Error('at least one service token is required');
  }

  matches(presented: string | null | undefined): boolean {
    if (typeof presented !== 'string' || presented === '') return false;
    const given = digest(presented);
    let matched = false;
    for (const token of this.accepted) {
      if (timingSafeEqual(given, token)) matched = true;
    }
    return matched;
  }
}
