/** Which share a caller ran out of: its own (the user) or its address's. */
export type QuotaKind = 'user' | 'address';

export interface QuotaLimits {
  perUser: number;
  perAddress: number;
}

/**
 * Shares of a scarce resource (live streams) per caller: at most `perUser` for one user and
 * `perAddress` for one client address, so one caller cannot take every slot of the process.
 * `take` either counts the caller in and returns the release (idempotent), or names the share
 * that is full and counts nothing.
 */
export class CallerQuota {
  private readonly byUser = new Map<string, number>();
  private readonly byAddress = new Map<string, number>();

  constructor(private readonly limits: QuotaLimits) {}

  take(user: string, address: string): { release: () => void } | { full: QuotaKind } {
    if ((this.byUser.get(user) ?? 0) >= this.limits.perUser) return { full: 'user' };
    if ((this.byAddress.get(address) ?? 0) >= this.limits.perAddress) return { full: 'address' };
    bump(this.byUser, user, 1);
    bump(this.byAddress, address, 1);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        bump(this.byUser, user, -1);
        bump(this.byAddress, address, -1);
      },
    };
  }

  held(user: string): number {
    return this.byUser.get(user) ?? 0;
  }
}

function bump(counts: Map<string, number>, key: string, by: number): void {
  const next = (counts.get(key) ?? 0) + by;
  if (next <= 0) counts.delete(key);
  else counts.set(key, next);
}
