/** Helpers shared by the benchmark orchestrators (bench/realtime, bench/cluster). */
import type { ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { WorkerCommand, WorkerMessage, WorkerResult } from './realtime/protocol.ts';

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A port free on 127.0.0.1 right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The next IPC message of a type from a child process (rejects on timeout or exit). */
export function nextMessage<T extends { type: string }>(
  child: ChildProcess,
  type: T['type'],
  timeoutMs: number,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timeout waiting for ${type}`)), timeoutMs);
    const listener = (message: T) => {
      if (message.type !== type) return;
      clearTimeout(timer);
      child.off('message', listener);
      resolve(message);
    };
    child.on('message', listener);
    child.once('exit', (code) => reject(new Error(`child exited (${code}) while waiting for ${type}`)));
  });
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

type CountedKey = keyof Omit<WorkerResult, 'ownerLatencies' | 'adminLatencies' | 'reasons'>;

/** Asks every load worker for its result: counters summed, latencies merged and sorted. */
export async function collectResults(workers: { worker: ChildProcess }[]) {
  const results = await Promise.all(
    workers.map(({ worker }) => {
      const answer = nextMessage<Extract<WorkerMessage, { type: 'result' }>>(worker, 'result', 60_000);
      worker.send({ type: 'collect' } satisfies WorkerCommand);
      return answer;
    }),
  );
  return {
    results: results.map((message) => message.result),
    sum: (key: CountedKey) => results.reduce((total, message) => total + message.result[key], 0),
    ownerLatencies: results.flatMap((message) => message.result.ownerLatencies).sort((a, b) => a - b),
    adminLatencies: results.flatMap((message) => message.result.adminLatencies).sort((a, b) => a - b),
  };
}

const docs = (name: string) => fileURLToPath(new URL(`../docs/${name}`, import.meta.url));

/**
 * Writes a benchmark's results: its section of docs/benchmarks.md (from `heading` to the next `## `,
 * keeping the section's hand-written "### Notes") and its key of docs/benchmarks.json.
 */
export function recordBenchmark(input: {
  heading: string;
  section: string;
  key: string;
  json: unknown;
}): void {
  const file = docs('benchmarks.md');
  let text = readFileSync(file, 'utf8');
  const start = text.indexOf(`\n${input.heading}`);
  if (start === -1) text = `${text.trimEnd()}\n\n${input.section}`;
  else {
    const next = text.indexOf('\n## ', start + 1);
    const previous = text.slice(start, next === -1 ? undefined : next);
    const notesAt = previous.indexOf('\n### Notes');
    const notes = notesAt === -1 ? '' : `${previous.slice(notesAt).trimEnd()}\n`;
    text = `${text.slice(0, start)}\n${input.section}${notes}${next === -1 ? '' : text.slice(next)}`;
  }
  writeFileSync(file, `${text.trimEnd()}\n`);
  const jsonFile = docs('benchmarks.json');
  let all: Record<string, unknown> = {};
  try {
    all = JSON.parse(readFileSync(jsonFile, 'utf8')) as Record<string, unknown>;
  } catch {
    // first benchmark written there
  }
  all[input.key] = input.json;
  writeFileSync(jsonFile, `${JSON.stringify(all, null, 2)}\n`);
}
