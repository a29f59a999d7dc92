import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { anySubscription } from './engine-subscriptions.store';

/** How long this process trusts what it last read of whether any engine subscribes. */
const HINT_TTL_MS = 1_000;

/**
 * Whether any engine subscribed when last read, and when that was (`HINT_TTL_MS`): the event
 * consumer kicks the sender only when some engine may be owed the event; a new subscription sets
 * it at once. One per process, shared by the sub-slice's two controllers.
 */
@Injectable()
export class EngineSubscriptionHint {
  private readonly subscribed = { any: true, readAt: 0, reading: false };

  constructor(private readonly dataSource: DataSource) {}

  /** The hint, read again outside any transaction at most once per `HINT_TTL_MS`. */
  maySubscribe(): boolean {
    const hint = this.subscribed;
    if (!hint.reading && Date.now() - hint.readAt > HINT_TTL_MS) {
      hint.reading = true;
      anySubscription(this.dataSource.manager).then(
        (any) => Object.assign(hint, { any, readAt: Date.now(), reading: false }),
        () => Object.assign(hint, { any: true, reading: false }),
      );
    }
    return hint.any;
  }

  /** A subscription was just saved. */
  subscribedNow(): void {
    this.subscribed.any = true;
  }
}
