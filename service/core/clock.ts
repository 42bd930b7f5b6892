/**
 * The service clock: real time plus an offset that only `POST /dev/clock` moves.
 * Every expiry and every "is this in the past" decision reads this clock, so a test can pass
 * five minutes (or a week) without sleeping.
 */
export class Clock {
  #offsetMs = 0;

  /** Milliseconds since the epoch, service time. */
  now(): number {
    return Date.now() + this.#offsetMs;
  }

  nowDate(): Date {
    return new Date(this.now());
  }

  get offsetMs(): number {
    return this.#offsetMs;
  }

  advance(seconds: number): void {
    this.#offsetMs += Math.round(seconds * 1000);
  }

  reset(): void {
    this.#offsetMs = 0;
  }

  /** Takes another process's offset (the development clock of a service on PostgreSQL is the database's). */
  setOffset(offsetMs: number): void {
    this.#offsetMs = offsetMs;
  }
}
