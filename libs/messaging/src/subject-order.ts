import { ErrorCode, NatsError, type JetStreamManager, type MsgRequest } from 'nats';
import type { EntityManager } from 'typeorm';
import { sendAheadAfterWrites } from '@openq/persistence';
import { decodeJson } from './codec';
import { DeliveryWindow } from './inbound/delivery-window';
import { RetryLaterError } from './retry-later';

/** Where an ordered consumer reads the stream, and what it may take as already settled. */
export interface SubjectOrderOptions {
  jsm: JetStreamManager;
  stream: string;
  /**
   * The consumer's ack floor when this process started: every message at or below it was
   * settled, by this version or an older one that kept no positions.
   */
  ackFloor: number;
}

/** Why a message cannot be applied yet: an earlier message of its subject is not settled. */
export interface Predecessor {
  subject: string;
  seq: number;
}

/** The messages of one subject a batch holds, by stream sequence, ascending. */
export interface SubjectTurn {
  subject: string;
  seqs: number[];
}

/** A batch message of a subject that does not follow the one before it (or the position) directly. */
interface Gap {
  /** Its place among the subject's messages in the batch. */
  index: number;
  from: number;
  seq: number;
}

/** Gaps of one subject looked up at once in a batch. */
const GAPS_AT_ONCE = 8;

/** A stored message of the stream, as the order check needs it. */
interface StoredRef {
  seq: number;
  messageId: string | null;
}

/** Per transaction (its manager): the positions `enter` already moved, as `<subject> <seq>`. */
const advancedByEnter = new WeakMap<EntityManager, Set<string>>();
function advancedIn(manager: EntityManager): Set<string> {
  let moved = advancedByEnter.get(manager);
  if (!moved) advancedByEnter.set(manager, (moved = new Set()));
  return moved;
}

/**
 * `enterAndClaim`'s CTEs, shared by `claimInOneStatement`: the position of consumer `$1` for subject
 * `$2` locked as it stood (`before`, read first), then moved to `$4` at once — created at the
 * start-up floor `$3` when missing — returning where it stood (`moved`).
 */
const ENTER = `before AS MATERIALIZED (
         SELECT last_seq FROM consumer_position WHERE consumer = $1 AND subject = $2 FOR UPDATE),
       moved AS (
         INSERT INTO consumer_position (consumer, subject, last_seq)
         SELECT $1, $2, GREATEST($3::bigint, $4::bigint, before.last_seq) FROM (SELECT 1) AS one
           LEFT JOIN before ON true
         ON CONFLICT (consumer, subject) DO UPDATE SET last_seq = GREATEST(consumer_position.last_seq, $4::bigint)
         RETURNING (SELECT last_seq FROM before) AS before)`;

/** The inbox row of consumer `$5` for message `$6`, claimed after the position's lock (it reads `moved`). */
const CLAIM = `claimed AS (
         INSERT INTO inbox (consumer, message_id) SELECT $5, $6 FROM moved
         ON CONFLICT DO NOTHING RETURNING 1)`;

/** How many stream look-ups one check may make past messages settled before positions existed. */
const MAX_LOOKUPS = 32;

/**
 * Stream order per subject (`<type>.<projectId>`) for one durable consumer, across every process
 * that shares it. A message is applied only once every earlier message of its subject was applied
 * or dead-lettered; the position (`consumer_position`) moves in the same transaction as the
 * message's effects, and its row lock makes two replicas take one subject's messages one at a time.
 * An earlier message is found by asking the stream for the first message of the subject after the
 * position — one look-up, skipped when the message follows the position directly. A batch locks
 * all its subjects at once and checks each gap the same way (`enterBatch`, `advanceBatch`).
 */
export class SubjectOrder {
  /** What this process knows of the consumer's deliveries: ranges it covers need no look-up. */
  private readonly window = new DeliveryWindow();

  constructor(
    private readonly consumer: string,
    private readonly options: SubjectOrderOptions,
  ) {}

  /** A delivery of the consumer, as it arrives (before any other is handled). */
  received(subject: string, streamSeq: number, deliverySeq: number, firstDelivery: boolean): void {
    this.window.received(subject, streamSeq, deliverySeq, firstDelivery);
  }

  /** A message acked or terminated, after its transaction committed. */
  settled(subject: string, streamSeq: number): void {
    this.window.settled(subject, streamSeq);
  }

  /**
   * Inside the message's transaction: locks the subject's position until the transaction ends and
   * returns the earlier message still to settle, or null when `seq` may be applied now.
   */
  async enter(manager: EntityManager, subject: string, seq: number): Promise<Predecessor | null> {
    return (await this.enterAndClaim(manager, subject, seq, null)).predecessor;
  }

  /**
   * `enter`, and, when `claim` is given, the message's inbox row inserted in the same statement,
   * after the position's lock (the order a batch takes them in too): `claimed` is false when the
   * inbox had the message already (a redelivery).
   */
  async enterAndClaim(
    manager: EntityManager,
    subject: string,
    seq: number,
    claim: { inboxConsumer: string; messageId: string } | null,
  ): Promise<{ predecessor: Predecessor | null; claimed: boolean }> {
    // One statement locks the subject's position (creating it at the start-up floor) and moves it
    // to `seq` at once, returning where it stood. Every path that commits (applied, seen before,
    // dead-lettered) advances to `seq`; one that does not (an earlier message pending, a failure)
    // rolls the move back with it. `advance` then has nothing left to write: one statement less
    // per message. (`before` reads the row as it stood, locked; a position another transaction
    // created meanwhile reads as the floor, which only costs look-ups, never order.)
    // (`before` is joined into the insert's source so that it is read, and locked, first; the
    // inbox insert reads the moved row, so it runs after both.)
    const params: unknown[] = [this.consumer, subject, this.options.ackFloor, seq];
    if (claim) params.push(claim.inboxConsumer, claim.messageId);
    const [row]: { before: string | null; claimed: boolean }[] = await manager.query(
      `WITH ${ENTER}${claim ? `, ${CLAIM}` : ''}
       SELECT before, ${claim ? 'EXISTS (SELECT 1 FROM claimed)' : 'true'} AS claimed FROM moved`,
      params,
    );
    advancedIn(manager).add(`${subject} ${seq}`);
    const last =
      row?.before === null || row?.before === undefined ? this.options.ackFloor : Number(row.before);
    return {
      predecessor: await this.pendingBefore(manager, subject, last + 1, seq),
      claimed: row?.claimed === true,
    };
  }

  /**
   * `enterAndClaim` as the final statement of a unit run in one statement (`inOneStatement`), or
   * null when this process's deliveries do not tell from where the subject's messages before `seq`
   * are settled. The statement locks and moves the position and claims the inbox row as
   * `enterAndClaim` does, and fails on purpose (a division by zero) unless the message may be
   * applied now with no look-up: the inbox did not have it, the position stands at or past where
   * the window knows every earlier message settled, and no transaction moved the position after
   * the statement's snapshot was taken (so the writes that run after it, on that snapshot, see every
   * earlier message of the subject applied, as a statement after the lock would). When it fails,
   * nothing is kept and the caller takes the usual way, which says why.
   */
  claimInOneStatement(
    subject: string,
    seq: number,
    claim: { inboxConsumer: string; messageId: string },
  ): { sql: string; params: unknown[] } | null {
    const from = this.window.settledFrom(subject, seq);
    if (from === null) return null;
    return {
      sql: `WITH seen AS (SELECT last_seq FROM consumer_position WHERE consumer = $1 AND subject = $2),
       ${ENTER}, ${CLAIM}
       SELECT 1 / (CASE WHEN EXISTS (SELECT 1 FROM claimed)
           AND COALESCE(moved.before, $3::bigint) + 1 >= LEAST($7::bigint, $4::bigint)
           AND moved.before IS NOT DISTINCT FROM (SELECT last_seq FROM seen)
         THEN 1 ELSE 0 END) AS applied
       FROM moved`,
      params: [
        this.consumer,
        subject,
        this.options.ackFloor,
        seq,
        claim.inboxConsumer,
        claim.messageId,
        from,
      ],
    };
  }

  /**
   * `claimInOneStatement` for a batch (its subjects' messages, each subject's ascending): every
   * position locked in subject order and moved to its subject's last message, every id claimed;
   * the statement fails on purpose unless all of them may be applied now with no look-up. Null
   * when this process's deliveries do not tell that of every subject (a gap before a message, or
   * between two of one subject, that they do not cover, or that holds a message not settled).
   */
  claimBatchInOneStatement(
    turns: SubjectTurn[],
    claim: { inboxConsumer: string; messageIds: string[] },
  ): { sql: string; params: unknown[] } | null {
    const sorted = [...turns].sort((a, b) => (a.subject < b.subject ? -1 : a.subject > b.subject ? 1 : 0));
    const lows: number[] = [];
    for (const { subject, seqs } of sorted) {
      const from = this.window.settledFrom(subject, seqs[0]!);
      if (from === null) return null;
      lows.push(Math.min(from, seqs[0]!));
      for (let i = 1; i < seqs.length; i++)
        if (
          seqs[i]! > seqs[i - 1]! + 1 &&
          this.window.pendingBefore(subject, seqs[i - 1]! + 1, seqs[i]!) !== null
        )
          return null;
    }
    return {
      sql: `WITH seen AS (SELECT subject, last_seq FROM consumer_position WHERE consumer = $1 AND subject = ANY($2::text[])),
       before AS MATERIALIZED (
         SELECT subject, last_seq FROM consumer_position WHERE consumer = $1 AND subject = ANY($2::text[])
         ORDER BY subject FOR UPDATE),
       moved AS (
         INSERT INTO consumer_position (consumer, subject, last_seq)
         SELECT $1, t.subject, GREATEST($3::bigint, t.last_seq, b.last_seq)
           FROM unnest($2::text[], $4::bigint[]) WITH ORDINALITY AS t (subject, last_seq, n)
           LEFT JOIN before b USING (subject) ORDER BY t.n
         ON CONFLICT (consumer, subject) DO UPDATE SET last_seq = GREATEST(consumer_position.last_seq, EXCLUDED.last_seq)
         RETURNING 1),
       claimed AS (
         INSERT INTO inbox (consumer, message_id) SELECT $5, unnest($6::text[])
         ON CONFLICT DO NOTHING RETURNING 1)
       SELECT 1 / (CASE WHEN (SELECT count(*) FROM claimed) = cardinality($6::text[])
           AND (SELECT count(*) FROM moved) = cardinality($2::text[])
           AND NOT EXISTS (
             SELECT 1 FROM unnest($2::text[], $7::bigint[]) AS t (subject, low)
               LEFT JOIN before b USING (subject) LEFT JOIN seen s USING (subject)
             WHERE COALESCE(b.last_seq, $3::bigint) + 1 < t.low OR b.last_seq IS DISTINCT FROM s.last_seq)
         THEN 1 ELSE 0 END) AS applied`,
      params: [
        this.consumer,
        sorted.map((t) => t.subject),
        this.options.ackFloor,
        sorted.map((t) => t.seqs[t.seqs.length - 1]!),
        claim.inboxConsumer,
        claim.messageIds,
        lows,
      ],
    };
  }

  /**
   * `enter` for a batch: inside the batch's transaction, locks the positions of all its subjects in
   * one statement, in subject order (two batches sharing subjects never wait on each other in a
   * cycle), and tells per subject how many of its messages (`seqs`, ascending) may be applied now —
   * a prefix: the rest wait behind an earlier message of the subject pending elsewhere. Each gap
   * (before the first message, and between two of the batch's messages of one subject that do not
   * follow each other in the stream) costs one look-up; they run in rounds, up to `GAPS_AT_ONCE`
   * of each subject at once, all subjects together.
   */
  async enterBatch(manager: EntityManager, turns: SubjectTurn[]): Promise<Map<string, number>> {
    const sorted = [...turns].sort((a, b) => (a.subject < b.subject ? -1 : a.subject > b.subject ? 1 : 0));
    const rows: { subject: string; last_seq: string }[] = await manager.query(
      `INSERT INTO consumer_position (consumer, subject, last_seq)
       SELECT $1, subject, $3 FROM unnest($2::text[]) WITH ORDINALITY AS turn (subject, n) ORDER BY n
       ON CONFLICT (consumer, subject) DO UPDATE SET last_seq = consumer_position.last_seq
       RETURNING subject, last_seq`,
      [this.consumer, sorted.map((t) => t.subject), this.options.ackFloor],
    );
    const positions = new Map(rows.map((r) => [r.subject, Number(r.last_seq)]));
    // Every gap of every subject, assuming the messages before it in the batch are applied.
    const gaps = new Map<string, Gap[]>();
    for (const { subject, seqs } of sorted) {
      const of: Gap[] = [];
      let from = positions.get(subject)! + 1;
      seqs.forEach((seq, index) => {
        if (seq > from) of.push({ index, from, seq });
        from = Math.max(from, seq + 1);
      });
      if (of.length > 0) gaps.set(subject, of);
    }
    const admitted = new Map(sorted.map((t) => [t.subject, t.seqs.length]));
    // The gaps this process's deliveries cover are settled without asking the stream.
    for (const [subject, of] of gaps) {
      let left: Gap[] = [];
      for (const [i, gap] of of.entries()) {
        const known = this.window.pendingBefore(subject, gap.from, gap.seq);
        if (known === undefined) {
          left = of.slice(i);
          break;
        }
        if (known !== null) {
          admitted.set(subject, gap.index);
          break;
        }
      }
      if (left.length > 0) gaps.set(subject, left);
      else gaps.delete(subject);
    }
    // In rounds: each subject's next few gaps at once, all subjects together; a subject stops at
    // its first gap holding an earlier message, so a lane cut short early wastes few look-ups.
    for (let round = 0; gaps.size > 0; round += GAPS_AT_ONCE) {
      const checks = [...gaps].flatMap(([subject, of]) =>
        of.slice(round, round + GAPS_AT_ONCE).map((gap) => ({ subject, gap })),
      );
      const found = await Promise.all(checks.map((c) => this.firstOfSubjectFrom(c.subject, c.gap.from)));
      for (const [i, { subject, gap }] of checks.entries()) {
        if (!gaps.has(subject)) continue; // an earlier gap of the subject already holds it
        if (await this.pendingBefore(manager, subject, gap.from, gap.seq, found[i])) {
          admitted.set(subject, gap.index);
          gaps.delete(subject);
        }
      }
      for (const [subject, of] of gaps) if (of.length <= round + GAPS_AT_ONCE) gaps.delete(subject);
    }
    return admitted;
  }

  /** In the same transaction, after the effects: the subject's position moves to `seq`. */
  async advance(manager: EntityManager, subject: string, seq: number): Promise<void> {
    if (advancedIn(manager).has(`${subject} ${seq}`)) return; // `enter` moved it already
    await this.advanceBatch(manager, [{ subject, seq }]);
  }

  /**
   * `advance` for a batch, in one statement: each subject (once) to its highest sequence applied.
   * The handlers' deferred writes (`deferWrite`) that no outbox insert took along go in the same
   * statement, ahead of it: a batch whose handlers only write costs no statement of its own. Nobody
   * reads its result: it goes ahead of the COMMIT (`sendAheadAfterWrites`), which fails if it does.
   */
  async advanceBatch(manager: EntityManager, positions: { subject: string; seq: number }[]): Promise<void> {
    if (positions.length === 0) return;
    await sendAheadAfterWrites(
      manager,
      `INSERT INTO consumer_position (consumer, subject, last_seq)
       SELECT $1, subject, last_seq FROM unnest($2::text[], $3::bigint[]) AS moved (subject, last_seq)
       ON CONFLICT (consumer, subject) DO UPDATE SET last_seq = GREATEST(consumer_position.last_seq, EXCLUDED.last_seq)`,
      [this.consumer, positions.map((p) => p.subject), positions.map((p) => p.seq)],
    );
  }

  /**
   * The earliest message of the subject in `[from, seq)` not yet settled, or null when `seq` may
   * be applied; `first` is the look-up from `from` when it was already made.
   */
  private async pendingBefore(
    manager: EntityManager,
    subject: string,
    from: number,
    seq: number,
    first?: StoredRef | null,
  ): Promise<Predecessor | null> {
    const known = seq > from ? this.window.pendingBefore(subject, from, seq) : null;
    if (known !== undefined) return known === null ? null : { subject, seq: known };
    for (let lookups = 0; seq > from && lookups < MAX_LOOKUPS; lookups++) {
      const earliest =
        lookups === 0 && first !== undefined ? first : await this.firstOfSubjectFrom(subject, from);
      // The message being applied is itself in the stream at `seq`, on this subject: a true answer
      // is at or before it. None, or one after it, comes from a server that still answers as the
      // stream's leader with a store behind the real one (paused, or cut off, and not yet told it
      // was replaced): applying now could pass an earlier message. Ask again later.
      if (earliest === null || earliest.seq > seq)
        throw new RetryLaterError(
          `${this.options.stream} answered ${earliest ? `seq ${earliest.seq}` : 'no message'} for ${subject} from ${from}, behind seq ${seq} being applied: a stale leader`,
        );
      if (earliest.seq === seq) return null;
      if (!(await this.settledBefore(manager, earliest))) return { subject, seq: earliest.seq };
      from = earliest.seq + 1;
    }
    return seq > from ? { subject, seq: from } : null;
  }

  private async firstOfSubjectFrom(subject: string, seq: number): Promise<StoredRef | null> {
    try {
      // The stream leader answers (not a direct get from a replica that may lag behind it).
      const stored = await this.options.jsm.streams.getMessage(this.options.stream, {
        seq,
        next_by_subj: subject,
      } as unknown as MsgRequest);
      return {
        seq: stored.seq,
        messageId: eventIdOf(stored.data) ?? (stored.header?.get('Nats-Msg-Id') || null),
      };
    } catch (error) {
      if ((error as { api_error?: { err_code?: number } }).api_error?.err_code === 10037) return null; // no message found
      // No answer in time, or none at all: the stream has no leader for now (an election, a
      // partition, a paused server). That passes; it is not the message's fault.
      if (isNatsUnanswered(error))
        throw new RetryLaterError(
          `${this.options.stream} did not answer the order look-up: ${String(error)}`,
        );
      throw error;
    }
  }

  /** A message settled while no position was kept for its subject (an older version, a mixed roll-out). */
  private async settledBefore(
    manager: EntityManager,
    message: { seq: number; messageId: string | null },
  ): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `SELECT 1 FROM inbox WHERE consumer = $1 AND message_id = $2
       UNION ALL SELECT 1 FROM dead_letter WHERE consumer = $1 AND stream_seq = $3 LIMIT 1`,
      [this.consumer, message.messageId ?? '', message.seq],
    );
    return rows.length > 0;
  }
}

/** A JetStream API request that got no answer: timed out, no responders, JetStream unavailable (503). */
function isNatsUnanswered(error: unknown): boolean {
  if (!(error instanceof NatsError)) return false;
  return (
    error.code === ErrorCode.Timeout ||
    error.code === ErrorCode.NoResponders ||
    error.code === ErrorCode.JetStreamNotEnabled ||
    error.api_error?.code === 503
  );
}

/** The envelope's `eventId`, the inbox's key (the publisher's Nats-Msg-Id is normally the same). */
function eventIdOf(data: Uint8Array): string | null {
  const decoded = decodeJson(data);
  const eventId = decoded.ok ? (decoded.value as { eventId?: unknown } | null)?.eventId : undefined;
  return typeof eventId === 'string' ? eventId : null;
}
