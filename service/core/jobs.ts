/**
 * Work that must not run on the request path: the emails of a login, whose cost would tell a
 * stopwatch whether an email belongs to someone. The answer goes out first; the jobs run in order
 * a moment later (up to 20 ms, at random), so that the time they take does not fall on the request
 * that follows the one that caused them either (measured by `npm run bench`). `/dev/outbox` waits for the queue, so a test or a person reading the outbox sees every
 * email of the calls it made before. `hold()` keeps jobs queued until `release()`, for the tests that
 * show the answer does not wait for them.
 */
export class Jobs {
  readonly #queue: { name: string; run: () => void | Promise<void> }[] = [];
  readonly #idle: (() => void)[] = [];
  #scheduled = false;
  #running = false;
  #held = false;

  constructor(private readonly logError: (message: string, err: unknown) => void) {}

  add(name: string, run: () => void | Promise<void>): void {
    this.#queue.push({ name, run });
    this.#schedule();
  }

  /** Resolves once every job added so far has run. */
  idle(): Promise<void> {
    if (this.#queue.length === 0 && !this.#running) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  get pending(): number {
    return this.#queue.length;
  }

  hold(): void {
    this.#held = true;
  }

  release(): Promise<void> {
    this.#held = false;
    this.#schedule();
    return this.idle();
  }

  #schedule(): void {
    if (this.#scheduled || this.#held || this.#queue.length === 0) return;
    this.#scheduled = true;
    setTimeout(() => void this.#drain(), Math.random() * 20);
  }

  /** Runs the queued jobs one after the other (each may wait for the store). */
  async #drain(): Promise<void> {
    this.#running = true;
    while (!this.#held && this.#queue.length > 0) {
      const job = this.#queue.shift()!;
      try {
        await job.run();
      } catch (err) {
        this.logError(`background job "${job.name}" failed`, err);
      }
    }
    this.#running = false;
    this.#scheduled = false;
    if (this.#queue.length === 0) for (const resolve of this.#idle.splice(0)) resolve();
    else this.#schedule();
  }
}
