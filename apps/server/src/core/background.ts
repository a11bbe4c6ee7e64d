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
export function repeatInBackground(
  log: Logger,
  task: string,
  everyMs: number,
  work: () => unknown,
): NodeJS.Timeout {
  return setInterval(() => runInBackground(log, task, work), everyMs).unref();
}

/** Work repeated in the background, named for the logs: `app.ts` starts and stops every one. */
export interface BackgroundLoop {
  name: string;
  everyMs: number;
  run(): unknown;
}

/** Starts the loops (`repeatInBackground`); answers how to stop them all. */
export function startLoops(log: Logger, loops: readonly BackgroundLoop[]): () => void {
  const timers = loops.map((loop) => repeatInBackground(log, loop.name, loop.everyMs, () => loop.run()));
  return () => {
    for (const timer of timers) clearInterval(timer);
  };
}
