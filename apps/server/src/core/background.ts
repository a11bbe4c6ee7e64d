import type { Logger } from 'pino';

/**
 * Runs work nobody awaits (a timer tick, a reaction to an event) so that its failure is logged
 * with the task's name and never becomes an unhandled rejection: during a database or Redis
 * outage the node keeps serving and the next tick tries again.
 */
export function runInBackground(log: Logger, task: string, work: () => unknown): void {
  const fail = (error: unknown) => log.error({ err: error, task }, 'tâche de fond en échec');
  try {
    const result = work();
    if (result instanceof Promise) result.catch(fail);
  } catch (error) {
    fail(error);
  }
}

/** `setInterval` for background work: failures logged (runInBackground), never keeps the process alive. */
function repeatInBackground(log: Logger, task: string, everyMs: number, work: () => unknown): NodeJS.Timeout {
  return setInterval(() => runInBackground(log, task, work), everyMs).unref();
}

/** Work repeated in the background, named for the logs (a module lists its loops this way). */
export interface BackgroundLoop {
  name: string;
  everyMs: number;
  run(): unknown;
}

/**
 * The node's background loops, each named and started in `app.ts` (so the wiring shows every timer
 * the node runs), all stopped together when the node closes.
 */
export class BackgroundLoops {
  private readonly timers: NodeJS.Timeout[] = [];

  constructor(private readonly log: Logger) {}

  every(name: string, everyMs: number, run: () => unknown): void {
    this.timers.push(repeatInBackground(this.log, name, everyMs, run));
  }

  stop(): void {
    for (const timer of this.timers.splice(0)) clearInterval(timer);
  }
}
