import type { INestApplication } from '@nestjs/common';
import { waitFor } from '@openq/testing';
import { closeOnSignals, shutdownAll } from './shutdown';

describe('shutdownAll', () => {
  it('names what it was still closing when it gives up', async () => {
    const exit = jest.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
    const errors: string[] = [];
    const error = jest.spyOn(console, 'error').mockImplementation((line: string) => void errors.push(line));
    const signals = ['SIGTERM', 'SIGINT'] as const;
    const listening = signals.map((signal) => new Set(process.listeners(signal)));
    const closed: string[] = [];
    const app = (name: string, close: () => Promise<void>) =>
      ({ close: () => close().then(() => void closed.push(name)) }) as unknown as INestApplication;
    try {
      closeOnSignals(
        'questions',
        app('questions', () => new Promise<void>(() => undefined)),
        60_000,
      );
      closeOnSignals(
        'gateway',
        app('gateway', () => Promise.resolve()),
        60_000,
      );
      void shutdownAll('SIGTERM', 100);
      await waitFor(async () => exit.mock.calls.length > 0, { timeoutMs: 5000, what: 'the timeout' });
      // The last started closes first; the one that hangs is the one named.
      expect(closed).toEqual(['gateway']);
      expect(exit).toHaveBeenCalledWith(1);
      expect(errors).toEqual([
        'openq: shutdown did not finish within 100 ms after SIGTERM (still closing: the questions app); exiting',
      ]);
    } finally {
      // The handlers `closeOnSignals` installed would hold this worker on a signal: removed.
      signals.forEach((signal, i) => {
        for (const listener of process.listeners(signal))
          if (!listening[i]!.has(listener)) process.removeListener(signal, listener);
      });
      exit.mockRestore();
      error.mockRestore();
    }
  });
});
