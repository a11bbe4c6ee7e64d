import closeWithGrace from 'close-with-grace';

/**
 * The signals that drain the server. A terminal's Ctrl-C signals the whole foreground process group
 * (npm and the server) and npm relays the signal to its script too, so the server gets each press
 * twice, a fraction of a millisecond apart; systemd stopping the unit's whole group does the same.
 * SIGHUP is a closed terminal (or a logged-out session): it drains the same way, saying so.
 */
const DRAIN_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
type DrainSignal = (typeof DRAIN_SIGNALS)[number];

/** Longest a drain may take (requests in flight, history, database) before the forced exit. */
export const SHUTDOWN_GRACE_MS = 10_000;
/** Websockets still open this long into the drain are destroyed (core/connection-drain.ts). */
export const CUT_WEBSOCKETS_AFTER_MS = 2_000;
/** Any connection still open this long into the drain is destroyed (core/connection-drain.ts). */
export const CUT_CONNECTIONS_AFTER_MS = 7_000;
/** What a forced exit gives its last save (the buffered history, the database's close). */
const LAST_SAVE_MS = 2_000;
/** How often an npm-started server checks that npm is still its parent. */
const PARENT_CHECK_MS = 1_000;

/** A signal this close to the previous one is the same press, relayed (decision 602). */
export const SAME_PRESS_MS = 1_000;

/**
 * What a drain signal means: the first press drains, its relayed copies and a second press change
 * nothing, a third press abandons the drain (an operator who really wants out).
 */
type SignalVerdict = 'drain' | 'relayed' | 'repeated' | 'force';

/** Counts presses from the times signals arrive (milliseconds, any monotonic clock). */
export function pressCounter(samePressMs = SAME_PRESS_MS): (now: number) => SignalVerdict {
  let presses = 0;
  let last = Number.NEGATIVE_INFINITY;
  return (now) => {
    const isRelayed = presses > 0 && now - last < samePressMs;
    last = now;
    if (isRelayed) return 'relayed';
    presses += 1;
    if (presses === 1) return 'drain';
    return presses === 2 ? 'repeated' : 'force';
  };
}

interface ShutdownLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

/** Before the app (and its logger) exists, messages go to the console. */
const consoleLog: ShutdownLog = {
  info: (details, message) => console.log(message, details),
  warn: (details, message) => console.warn(message, details),
  error: (details, message) => console.error(message, details),
};

/** One thing a forced exit still tries to save, named in the log when it could not. */
export interface LastSaveStep {
  /** What is lost when the step fails, in French: « l’historique des bots en mémoire ». */
  what: string;
  run: () => Promise<void>;
}

/**
 * Runs the steps in order within `withinMs` in all; returns what could not be saved (a step that
 * failed, did not finish in time, or had no time left to start).
 */
export async function runLastSave(steps: LastSaveStep[], withinMs: number): Promise<string[]> {
  const deadline = performance.now() + withinMs;
  const failures: string[] = [];
  let isOutOfTime = false;
  for (const step of steps) {
    const left = deadline - performance.now();
    if (isOutOfTime || left <= 0) {
      failures.push(`${step.what} (plus de temps)`);
      continue;
    }
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(resolve, left, 'late')));
    try {
      isOutOfTime = (await Promise.race([step.run(), late])) === 'late';
      if (isOutOfTime) failures.push(`${step.what} (délai dépassé)`);
    } catch (error) {
      failures.push(`${step.what} (${(error as Error)?.message ?? error})`);
    } finally {
      clearTimeout(timer);
    }
  }
  return failures;
}

/**
 * close-with-grace for the errors and the other signals, with SIGINT, SIGTERM and SIGHUP counted
 * here (its own rule exits 1 on any second signal, and its `onSecondSignal` cannot prevent the exit):
 * the first press runs `close` through close-with-grace's `close()` (exit 0 once it resolves), a
 * repeated one is logged, the third abandons the drain. The drain's limit is kept here too, since a
 * forced exit (third press, limit passed) first gives `lastSave` up to `LAST_SAVE_MS`, logs what it
 * could not save, then exits 1; close-with-grace's own timeout stays as a backstop behind it.
 * `watchParent`: the server drains when its parent goes (npm killed: the server would run on
 * under PID 1, holding the port and the data folder's lock) (decision 602).
 */
export function closeGracefully(options: {
  delay: number;
  log: () => ShutdownLog | undefined;
  close: (reason: { err?: Error }) => Promise<void>;
  lastSave: () => LastSaveStep[];
  watchParent: boolean;
}): void {
  const log = () => options.log() ?? consoleLog;
  let isDraining = false;
  let forcing: Promise<never> | undefined;
  const forceExit = (why: string, details: object): Promise<never> => {
    forcing ??= (async () => {
      log().error(
        details,
        `${why} : sortie forcée (code 1) après une dernière sauvegarde (${LAST_SAVE_MS / 1000} s au plus)`,
      );
      const lost = await runLastSave(options.lastSave(), LAST_SAVE_MS);
      if (lost.length === 0) log().warn({}, 'dernière sauvegarde faite : historique écrit, base fermée');
      else log().error({ lost }, `dernière sauvegarde incomplète, non sauvegardé : ${lost.join(' ; ')}`);
      process.exit(1);
    })();
    return forcing;
  };
  const closer = closeWithGrace(
    {
      delay: options.delay + LAST_SAVE_MS + 1_000,
      // A rejected promise nobody handled is logged by main.ts; the drain signals are counted below.
      skip: ['unhandledRejection', ...DRAIN_SIGNALS],
      logger: { error: (error: unknown) => log().error({ err: error }, 'erreur pendant l’arrêt') },
      onTimeout: (delay) =>
        log().error({ delay }, `arrêt inachevé après ${delay / 1000} s : sortie forcée (code 1)`),
      onSecondSignal: (signal) =>
        log().error({ signal }, `signal ${signal} pendant l’arrêt : sortie immédiate (code 1)`),
      onSecondError: (error) =>
        log().error({ err: error }, 'nouvelle erreur fatale pendant l’arrêt : sortie immédiate (code 1)'),
    },
    async ({ err }) => {
      isDraining = true;
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => (timer = setTimeout(resolve, options.delay, 'late')));
      const outcome = await Promise.race([options.close({ err }), late]);
      clearTimeout(timer);
      if (outcome === 'late')
        await forceExit(`arrêt inachevé après ${options.delay / 1000} s`, { delay: options.delay });
      // A forced exit under way (a third press) ends the process itself, with code 1.
      if (forcing) await forcing;
    },
  );
  const drain = () => {
    isDraining = true;
    closer.close();
  };

  const verdictOf = pressCounter();
  const onSignal = (signal: DrainSignal) => {
    const verdict = verdictOf(performance.now());
    if (verdict === 'drain' && !isDraining) {
      log().info(
        { signal },
        signal === 'SIGHUP'
          ? 'signal reçu (SIGHUP : terminal fermé ou session terminée) : arrêt en cours (les requêtes en cours se terminent)'
          : 'signal reçu : arrêt en cours (les requêtes en cours se terminent)',
      );
      drain();
    } else if (verdict === 'relayed') {
      log().info(
        { signal },
        'signal reçu de nouveau dans la seconde, compté comme le même appui (npm relaie le Ctrl-C) : l’arrêt continue',
      );
    } else if (verdict === 'force') {
      void forceExit('signal reçu une troisième fois : arrêt abandonné', { signal });
    } else {
      log().warn(
        { signal },
        'signal reçu de nouveau : l’arrêt continue (un troisième, à plus d’une seconde, l’abandonne)',
      );
    }
  };
  for (const signal of DRAIN_SIGNALS) process.on(signal, onSignal);

  // Node has no "signal me when my parent dies" (Linux's PR_SET_PDEATHSIG): the parent is polled.
  const parent = process.ppid;
  if (!options.watchParent || parent <= 1) return;
  const watch = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(watch);
    if (isDraining) return;
    log().warn(
      { parent, now: process.ppid },
      'processus parent (npm) disparu : arrêt en cours, pour ne pas continuer seul en tenant le port et les données',
    );
    drain();
  }, PARENT_CHECK_MS).unref();
}
