import { makeDirs } from './fs-safe';
import { stageGuard } from './output-guard';
import {
  OutputWrite,
  OutputWriteError,
  commitStaged,
  discardUncommitted,
  guardedWrite,
  stageFile,
} from './output-journal';

/** New files written (and flushed) at most this many at once: each holds a descriptor meanwhile. */
const CONCURRENCY = 64;

/**
 * The writes of one run, staged as they are handed over: the thread pool creates and flushes each
 * output's new files while the run still plans the next outputs, and `commit` makes them all visible
 * (output-journal.ts). Nothing is visible before: staged names are hidden and uncommitted, so
 * `discard` (or a crash, through the next run's recovery) leaves every output as it was.
 */
export class OutputStaging {
  private readonly writes: OutputWrite[] = [];
  private readonly queue: (() => Promise<void>)[] = [];
  private readonly settledAll: Promise<void>[] = [];
  private running = 0;
  private failure: OutputWriteError | undefined;
  private done = false;
  private committing = false;

  /** Starts staging `w`'s new files (its output directory is made if the caller's lock did not). */
  add(write: OutputWrite): void {
    if (this.done) throw new Error('OutputStaging: add after commit or discard');
    makeDirs(write.dir);
    const w = guardedWrite(write);
    this.writes.push(w);
    for (const f of w.files) this.settledAll.push(this.enqueue(() => stageFile(w.dir, f)));
    if (w.guard) this.settledAll.push(this.enqueue(() => stageGuard(w.dir)));
  }

  /** Waits for every staged file, then commits every output (an error: see output-dir.ts). */
  async commit(): Promise<readonly OutputWrite[]> {
    this.done = true;
    this.committing = true;
    await Promise.all(this.settledAll);
    if (this.failure) throw this.failure;
    await commitStaged(this.writes);
    return this.writes;
  }

  /** Waits for what is under way, then removes every staged name: the outputs are as they were. No-op once committing. */
  async discard(): Promise<void> {
    if (this.committing) return;
    this.done = true;
    this.failure ??= new OutputWriteError('.', 'discarded');
    await Promise.all(this.settledAll);
    for (const w of this.writes) discardUncommitted(w.dir);
  }

  /** Runs `job` when fewer than CONCURRENCY are running; after a failure, skips it. Never rejects. */
  private enqueue(job: () => Promise<void>): Promise<void> {
    return new Promise<void>((resolve) => {
      this.queue.push(async () => {
        try {
          if (!this.failure) await job();
        } catch (e) {
          this.failure ??= e instanceof OutputWriteError ? e : new OutputWriteError('.', e);
        } finally {
          this.running -= 1;
          resolve();
          this.next();
        }
      });
      this.next();
    });
  }

  private next(): void {
    while (this.running < CONCURRENCY && this.queue.length > 0) {
      this.running += 1;
      void this.queue.shift()!();
    }
  }
}
