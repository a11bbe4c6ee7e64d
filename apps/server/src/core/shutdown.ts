import closeWithGrace from 'close-with-grace';

/**
 * The signals that drain the server. A terminal's Ctrl-C signals the whole foreground process group
 * (npm and the server) and npm relays the signal to its script too, so the server gets each press
 * twice, a fraction of a millisecond apart; systemd stopping the unit's whole group does the same.
 */
const DRAIN_SIGNALS = ['SIGINT', 'SIGTERM'] as const;
type DrainSignal = (typeof DRAIN_SIGNALS)[number];

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

/**
 * close-with-grace for the errors and the other signals, with SIGINT and SIGTERM counted here
 * (its own rule exits 1 on any second signal, and its `onSecondSignal` cannot prevent the exit):
 * the first press runs `close` through close-with-grace's `close()` (the same `delay`, exit 0 once
 * it resolves), a repeated one is logged, the third abandons the drain with exit 1.
 */
export function closeGracefully(options: {
  delay: number;
  log: () => ShutdownLog | undefined;
  close: (reason: { err?: Error }) => Promise<void>;
}): void {
  const log = () => options.log() ?? consoleLog;
  let isDraining = false;
  const closer = closeWithGrace(
    {
      delay: options.delay,
      // A rejected promise nobody handled is logged by main.ts; SIGINT/SIGTERM are counted below.
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
      await options.close({ err });
    },
  );

  const verdictOf = pressCounter();
  const onSignal = (signal: DrainSignal) => {
    const verdict = verdictOf(performance.now());
    if (verdict === 'drain' && !isDraining) {
      log().info({ signal }, 'signal reçu : arrêt en cours (les requêtes en cours se terminent)');
      closer.close();
    } else if (verdict === 'relayed') {
      log().info(
        { signal },
        'signal reçu de nouveau dans la seconde, compté comme le même appui (npm relaie le Ctrl-C) : l’arrêt continue',
      );
    } else if (verdict === 'force') {
      log().error({ signal }, 'signal reçu une troisième fois : arrêt abandonné, sortie immédiate (code 1)');
      process.exit(1);
    } else {
      log().warn(
        { signal },
        'signal reçu de nouveau : l’arrêt continue (un troisième, à plus d’une seconde, l’abandonne)',
      );
    }
  };
  for (const signal of DRAIN_SIGNALS) process.on(signal, onSignal);
}
