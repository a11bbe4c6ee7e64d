import { writeSync } from 'node:fs';

/**
 * The server's output once its terminal may go away. A closed terminal window makes every write to
 * it fail (EIO); the log's default destination retries a failed synchronous write forever, so the
 * drain that SIGHUP starts hung on its first log line, holding the database and deaf to SIGTERM.
 * Here a write that fails for good marks the terminal gone and later lines are dropped: the drain
 * goes on without an audience (docs/operations.md, "Signals and shutdown").
 */
let isTerminalGone = false;

/** Codes of a terminal or pipe that nobody reads any more. */
const GONE = new Set(['EIO', 'EPIPE', 'EBADF', 'ENXIO']);

/** A pino destination on standard output that survives the terminal closing. */
export const terminalSafeStdout = {
  write(line: string): void {
    if (isTerminalGone) return;
    let rest = Buffer.from(line);
    while (rest.length > 0) {
      try {
        rest = rest.subarray(writeSync(1, rest));
      } catch (error) {
        const code = (error as { code?: string }).code ?? '';
        if (code === 'EAGAIN') continue; // a full pipe: its reader catches up
        if (GONE.has(code)) isTerminalGone = true;
        return;
      }
    }
  },
};

/**
 * `console.log` and Node's own warnings write to the same terminal through streams: a failed write
 * there is an 'error' event, uncaught without a listener (and a fatal error during the drain).
 */
export function tolerateClosedTerminal(): void {
  for (const stream of [process.stdout, process.stderr])
    stream.on('error', (error: { code?: string }) => {
      if (GONE.has(error.code ?? '')) isTerminalGone = true;
    });
}
