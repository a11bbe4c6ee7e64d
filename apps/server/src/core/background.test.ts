import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { runInBackground } from './background.ts';

/** A logger writing its lines here, as JSON objects. */
function capturedLogger() {
  const lines: { msg: string; task?: string; failuresSinceLastLog?: number }[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { log, lines };
}

describe('runInBackground', () => {
  it('logs a task that keeps failing once, counts the rest, and says when it works again', async () => {
    const { log, lines } = capturedLogger();
    // A loop ticking 5 times a second during an outage used to log 5 errors a second.
    const ticks = Array.from({ length: 20 }, () =>
      runInBackground(log, 'boucle', () => Promise.reject(new Error('base indisponible'))),
    );
    expect(ticks).toHaveLength(20);
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines.map((line) => line.msg)).toEqual(['tâche de fond en échec']);

    runInBackground(log, 'boucle', () => Promise.resolve());
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines.at(-1)).toMatchObject({
      msg: 'tâche de fond rétablie',
      task: 'boucle',
      failuresSinceLastLog: 19,
    });

    runInBackground(log, 'boucle', () => {
      throw new Error('encore');
    });
    expect(lines.at(-1)).toMatchObject({ msg: 'tâche de fond en échec', task: 'boucle' });
  });

  it('keeps tasks apart: one failing task does not silence another', async () => {
    const { log, lines } = capturedLogger();
    runInBackground(log, 'a', () => Promise.reject(new Error('a')));
    runInBackground(log, 'b', () => Promise.reject(new Error('b')));
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines.map((line) => line.task)).toEqual(['a', 'b']);
  });
});
