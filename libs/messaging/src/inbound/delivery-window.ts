/**
 * What this process knows, without asking the stream, of an ordered consumer's messages (issue #29).
 *
 * JetStream delivers a consumer's messages the first time in stream order, and numbers every
 * delivery of the consumer, to any process, with the next delivery sequence. So while the deliveries
 * this process receives follow each other with no gap in that numbering, no other process received
 * any, and every message of the consumer's filter stored after the first of them was delivered here.
 * From that message on (`start`), this process knows which messages of each subject exist and which
 * it has not settled yet (acked or terminated, after their transaction committed): the order check
 * needs no look-up in the stream for a range that begins at or after `start`. A gap in the numbering
 * (another replica took a delivery, a redelivery went elsewhere, the consumer was recreated) closes
 * the window until the next first delivery; a range before `start` is looked up as before.
 */
export class DeliveryWindow {
  /** The stream sequence from which every message of the filter was delivered here; null: none yet. */
  private start: number | null = null;
  private lastDelivery = 0;
  /** Per subject, the stream sequences (≥ `start`) delivered here and not settled yet. */
  private readonly open = new Map<string, Set<number>>();

  /**
   * A message as it arrives, in the order the server delivered them. After a gap in the numbering
   * the window opens again at the next first delivery: the messages stored after it can only be
   * delivered after it. A redelivery is already known (inside the window: open, or settled here).
   */
  received(subject: string, streamSeq: number, deliverySeq: number, firstDelivery: boolean): void {
    const follows = this.lastDelivery !== 0 && deliverySeq === this.lastDelivery + 1;
    this.lastDelivery = deliverySeq;
    if (!follows) {
      this.start = null;
      this.open.clear();
    }
    if (!firstDelivery) return;
    if (this.start === null) this.start = streamSeq;
    let seqs = this.open.get(subject);
    if (!seqs) this.open.set(subject, (seqs = new Set()));
    seqs.add(streamSeq);
  }

  /** Acked or terminated: its transaction committed (applied, seen before, or dead-lettered). */
  settled(subject: string, streamSeq: number): void {
    const seqs = this.open.get(subject);
    if (!seqs) return;
    seqs.delete(streamSeq);
    if (seqs.size === 0) this.open.delete(subject);
  }

  /**
   * The earliest message of `subject` in `[from, seq)` not settled, `null` when there is none, or
   * `undefined` when the window does not cover the range (the stream must be asked).
   */
  pendingBefore(subject: string, from: number, seq: number): number | null | undefined {
    if (this.start === null || from < this.start) return undefined;
    let earliest: number | null = null;
    for (const s of this.open.get(subject) ?? [])
      if (s >= from && s < seq && (earliest === null || s < earliest)) earliest = s;
    return earliest;
  }

  /**
   * The lowest `from` for which `pendingBefore(subject, from, seq)` is `null` — every message of
   * the subject in `[from, seq)` known and settled — or `null` when the window knows no such range.
   */
  settledFrom(subject: string, seq: number): number | null {
    if (this.start === null) return null;
    let from = this.start;
    for (const s of this.open.get(subject) ?? []) if (s < seq && s + 1 > from) from = s + 1;
    return from;
  }
}
