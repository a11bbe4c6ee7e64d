import type { Logger } from 'pino';

/** A task failing again within this delay is counted, not logged (a loop ticking 5 times a second). */
const REPEAT_LOG_MS = 60_000;

/** Per logger (one per node), the tasks failing now: when their failure was last logged, and how often since. */
const failing = new WeakMap<Logger, Map<string, { loggedAt: number; unlogged: number }>>();

/**
 * Runs work nobody awaits (a timer tick, a reaction to an event) so that its failure is logged
 * with the task's name and never becomes an unhandled rejection: during a database or Redis
 * outage the node keeps serving and the next tick tries again. A task that keeps failing is logged
 * once a minute with the count of failures between, and once more when it works again.
 */
export function runInBackground(log: Logger, task: string, work: () => unknown): void {
  try {
    const result = work();
    if (result instanceof Promise)
      result.then(
        () => recovered(log, task),
        (error: unknown) => failed(log, task, error),
      );
    else recovered(log, task);
  } catch (error) {
    failed(log, task, error);
  }
}

function failed(log: Logger, task: string, error: unknown): void {
  const tasks = failing.get(log) ?? new Map<string, { loggedAt: number; unlogged: number }>();
  failing.set(log, tasks);
  const state = tasks.get(task);
  const now = Date.now();
  if (state && now - state.loggedAt < REPEAT_LOG_MS) {
    state.unlogged += 1;
    return;
  }
  if (state)
    log.error({ err: error, task, failuresSinceLastLog: state.unlogged }, 'tâche de fond toujours en échec');
  else log.error({ err: error, task }, 'tâche de fond en échec');
  tasks.set(task, { loggedAt: now, unlogged: 0 });
}

function recovered(log: Logger, task: string): void {
  const state = failing.get(log)?.get(task);
  if (!state) return;
  failing.get(log)?.delete(task);
  log.info({ task, failuresSinceLastLog: state.unlogged }, 'tâche de fond rétablie');
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
