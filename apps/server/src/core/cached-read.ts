/**
 * One value read often and changed rarely (the settings, the maintenance windows to come): kept
 * `ttlMs`, forgotten at once when a change is announced. While it is not fresh, one read serves
 * every caller until it answers: a reconnect storm authenticates thousands of sockets at once, and
 * every page load asks for the public settings. A read that fails (the database is gone) answers
 * the last value read, and the next read is tried after `retryMs`: pages keep their settings
 * during an outage instead of a 503 (docs/operations.md, "Operating a node").
 */
export class CachedRead<T> {
  private value: T | undefined;
  private expiresAt = 0;
  /** The read under way: callers arriving meanwhile share it. */
  private reading: Promise<T> | undefined;

  constructor(
    private readonly ttlMs: number,
    private readonly retryMs = Math.min(ttlMs, 5_000),
  ) {}

  /** The value while fresh, else what `read` answers (shared with the callers meanwhile). */
  get(read: () => Promise<T>): Promise<T> {
    if (this.value !== undefined && this.expiresAt > Date.now()) return Promise.resolve(this.value);
    if (!this.reading) {
      const reading = read().then(
        (value) => {
          if (this.reading === reading) {
            this.value = value;
            this.expiresAt = Date.now() + this.ttlMs;
            this.reading = undefined;
          }
          return value;
        },
        (error: unknown) => {
          if (this.reading !== reading) throw error;
          this.reading = undefined;
          if (this.value === undefined) throw error;
          this.expiresAt = Date.now() + this.retryMs;
          return this.value;
        },
      );
      this.reading = reading;
    }
    return this.reading;
  }

  /** After a change: the next caller reads again, and a read started before the change is not kept. */
  forget(): void {
    this.expiresAt = 0;
    this.reading = undefined;
  }
}
