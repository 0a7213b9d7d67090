/**
 * Progress of a long import: a bar rewritten in place on a terminal, a line at most once a
 * second otherwise (logs and CI keep a readable trace), each with counts and rate.
 */
export interface ProgressSink {
  write(text: string): void;
  isTTY?: boolean;
}

const WIDTH = 24;

export class Progress {
  private started = performance.now();
  private lastLine = 0;
  private done = 0;

  constructor(
    private total: number,
    private sink: ProgressSink,
    private now: () => number = () => performance.now(),
  ) {
    this.started = now();
  }

  /** `count` more rows of `label` are written. */
  advance(label: string, count: number): void {
    this.done += count;
    const t = this.now();
    const finished = this.done >= this.total;
    if (!finished && t - this.lastLine < 1000) return;
    this.lastLine = t;
    const rate = Math.round((this.done * 1000) / Math.max(t - this.started, 1));
    const share = this.total ? this.done / this.total : 1;
    const counts = `${this.done.toLocaleString('en-US')}/${this.total.toLocaleString('en-US')} rows (${rate.toLocaleString('en-US')}/s)`;
    if (this.sink.isTTY) {
      const filled = Math.round(share * WIDTH);
      this.sink.write(`\r[${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${counts} ${label}\x1b[K${finished ? '\n' : ''}`);
    } else {
      this.sink.write(`importing ${label}: ${counts}\n`);
    }
  }

  elapsedSeconds(): number {
    return (this.now() - this.started) / 1000;
  }
}
