import { DeliveryWindow } from './delivery-window';

const S = 'question.answered.p1';
const T = 'question.answered.p2';

describe('DeliveryWindow: what the deliveries received here tell of a subject without the stream', () => {
  it('knows nothing before its first delivery', () => {
    expect(new DeliveryWindow().pendingBefore(S, 1, 10)).toBeUndefined();
  });

  it('from the first delivery on, a range with no open message of the subject has none pending', () => {
    const w = new DeliveryWindow();
    w.received(S, 100, 7, true);
    w.received(T, 103, 8, true);
    w.received(S, 105, 9, true);
    w.settled(S, 100);
    expect(w.pendingBefore(S, 101, 105)).toBeNull();
    expect(w.pendingBefore(T, 101, 110)).toBe(103); // delivered here, not settled
    expect(w.pendingBefore(S, 99, 105)).toBeUndefined(); // starts before the window
  });

  it('an open message of the subject is the earliest pending one, until it is settled', () => {
    const w = new DeliveryWindow();
    w.received(S, 10, 1, true);
    w.received(S, 12, 2, true);
    w.received(S, 15, 3, true);
    expect(w.pendingBefore(S, 10, 15)).toBe(10);
    w.settled(S, 10);
    expect(w.pendingBefore(S, 11, 15)).toBe(12);
    w.settled(S, 12);
    expect(w.pendingBefore(S, 13, 15)).toBeNull();
  });

  it('a gap in the delivery numbering (another process took one) closes the window until the next first delivery', () => {
    const w = new DeliveryWindow();
    w.received(S, 10, 1, true);
    w.received(S, 20, 3, true); // delivery 2 went elsewhere: message 15 of S may be pending there
    expect(w.pendingBefore(S, 11, 20)).toBeUndefined();
    expect(w.pendingBefore(T, 20, 30)).toBeNull(); // from 20 on, everything came here
    w.received(S, 25, 4, true);
    expect(w.pendingBefore(S, 21, 25)).toBeNull();
    expect(w.pendingBefore(S, 20, 25)).toBe(20);
  });

  it('a redelivery after a gap opens nothing: what was delivered before it is unknown', () => {
    const w = new DeliveryWindow();
    w.received(S, 10, 1, true);
    w.received(S, 5, 9, false); // a redelivery, with a gap before it
    expect(w.pendingBefore(S, 5, 40)).toBeUndefined();
    w.received(T, 40, 10, true);
    expect(w.pendingBefore(S, 40, 50)).toBeNull();
    expect(w.pendingBefore(S, 39, 50)).toBeUndefined();
  });

  it('a redelivery inside the window changes nothing: open stays open, settled stays settled', () => {
    const w = new DeliveryWindow();
    w.received(S, 10, 1, true);
    w.received(S, 11, 2, true);
    w.settled(S, 10);
    w.received(S, 10, 3, false); // the ack was lost: a duplicate, claimed as seen before
    w.received(S, 11, 4, false); // nak'd, back again
    expect(w.pendingBefore(S, 10, 12)).toBe(11);
    w.settled(S, 11);
    expect(w.pendingBefore(S, 10, 12)).toBeNull();
  });

  it('settledFrom is the lowest start of a range pendingBefore finds settled, whatever the window holds', () => {
    const w = new DeliveryWindow();
    expect(w.settledFrom(S, 10)).toBeNull();
    const agrees = (subject: string, seq: number) => {
      const from = w.settledFrom(subject, seq);
      for (let f = 1; f <= seq; f++)
        expect([f, w.pendingBefore(subject, f, seq) === null]).toEqual([f, from !== null && f >= from]);
    };
    w.received(S, 10, 1, true);
    w.received(T, 11, 2, true);
    w.received(S, 12, 3, true);
    w.received(S, 15, 4, true);
    agrees(S, 15); // 10 and 12 open: from 13
    expect(w.settledFrom(S, 15)).toBe(13);
    w.settled(S, 12);
    agrees(S, 15); // 10 open: from 11
    w.settled(S, 10);
    agrees(S, 15); // all settled: from the window's start
    expect(w.settledFrom(S, 15)).toBe(10);
    agrees(T, 20);
    w.received(S, 30, 9, true); // a gap in the numbering: the window starts again at 30
    agrees(S, 30);
    expect(w.settledFrom(S, 31)).toBe(31);
  });
});
