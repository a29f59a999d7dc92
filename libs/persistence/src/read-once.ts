import type { EntityManager } from 'typeorm';

const MEMO = 'openq:readOnce';

/**
 * A read made once per transaction (issue #29): a batch of messages is one transaction, and its
 * handlers often read the same rows for each message (a project's channels for every event of the
 * batch). The first call runs `load`; later calls with the same `key` in the same transaction get
 * its result (the same promise, so concurrent callers share one round trip). Only for rows the
 * transaction does not write itself: what it returns is the transaction's view when first read.
 * Outside a transaction every call reads.
 */
export function readOncePerTransaction<T>(
  manager: EntityManager,
  key: string,
  load: () => Promise<T>,
): Promise<T> {
  const runner = manager.queryRunner;
  if (!runner?.isTransactionActive) return load();
  const data = runner.data as Record<string, Map<string, Promise<unknown>> | undefined>;
  const memo = (data[MEMO] ??= new Map());
  let read = memo.get(key) as Promise<T> | undefined;
  if (!read) {
    read = load();
    memo.set(key, read);
    // A failed read is not kept: the transaction fails with it, or the caller tries again.
    read.catch(() => memo.delete(key));
  }
  return read;
}
