import { Presets, SingleBar } from 'cli-progress';

/**
 * The bench's progress: a cli-progress bar on a terminal, one plain line per step otherwise (CI
 * logs), nothing when quiet (the jest spec).
 */
export class Progress {
  private readonly bar: SingleBar | null;
  private done = 0;
  private readonly started = Date.now();

  constructor(
    private total: number,
    private readonly mode: 'bar' | 'lines' | 'quiet',
  ) {
    this.bar =
      mode === 'bar'
        ? new SingleBar(
            {
              format: ' {bar} {percentage}% | {value}/{total} | {elapsed}s elapsed | {step}',
              hideCursor: true,
              etaBuffer: 20,
            },
            Presets.shades_classic,
          )
        : null;
    this.bar?.start(total, 0, { step: 'starting' });
  }

  static auto(total: number, quiet: boolean): Progress {
    return new Progress(total, quiet ? 'quiet' : process.stderr.isTTY ? 'bar' : 'lines');
  }

  /** Names what is running now. */
  step(label: string): void {
    if (this.bar) this.bar.update(this.done, { step: label });
    else if (this.mode === 'lines')
      process.stderr.write(
        `[bench ${this.done}/${this.total} +${Math.round((Date.now() - this.started) / 1000)}s] ${label}\n`,
      );
  }

  /** One step finished. */
  tick(label?: string): void {
    this.done++;
    if (this.done > this.total) {
      this.total = this.done;
      this.bar?.setTotal(this.total);
    }
    this.bar?.update(this.done, label ? { step: label } : {});
  }

  stop(): void {
    this.bar?.update(this.total);
    this.bar?.stop();
  }
}
