import type { SetTimer } from '@bot/bot-agent';

/**
 * A clock and timer the SDK takes as options (`now`, `setTimer`): a test moves it hours ahead in
 * one step, and the timers that fall due run then, earliest first. Timers they set wait for the
 * next move, so a move is one step a test can reason about.
 */
export class ManualClock {
  private at: number;
  private readonly timers = new Set<{ due: number; task: () => void }>();

  constructor(start = Date.now()) {
    this.at = start;
  }

  readonly now = (): number => this.at;

  readonly setTimer: SetTimer = (task, delayMs) => {
    const timer = { due: this.at + Math.max(0, delayMs), task };
    this.timers.add(timer);
    return () => this.timers.delete(timer);
  };

  /** Moves the clock forward to `at` and runs the timers due by then. */
  moveTo(at: number): void {
    if (at < this.at) throw new Error('ManualClock only moves forward');
    this.at = at;
    const due = [...this.timers].filter((timer) => timer.due <= at).sort((a, b) => a.due - b.due);
    for (const timer of due) {
      this.timers.delete(timer);
      timer.task();
    }
  }

  moveBy(ms: number): void {
    this.moveTo(this.at + ms);
  }
}
