/** Helpers shared by the benchmark orchestrators (bench/realtime, bench/cluster). */
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleServer } from '../apps/server/scripts/bundle.mjs';
import type { WorkerCommand, WorkerMessage, WorkerResult } from './realtime/protocol.ts';

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Resolves once every child has exited, or after `ms` at most. The timer does not hold the process
 * open: a benchmark whose children all stopped ends at once (a plain sleep kept one 30 s more).
 */
export function exited(children: ChildProcess[], ms: number): Promise<void> {
  const running = children.filter((child) => child.exitCode === null && child.signalCode === null);
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    timer.unref();
    void Promise.all(running.map((child) => new Promise((done) => child.once('exit', done)))).then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

const COMPILED_DIR = fileURLToPath(new URL('../apps/server/dist/bench/', import.meta.url));
const compiling = new Map<string, Promise<string>>();

/**
 * A benchmark target (a module that starts the server or a baseline) compiled the way `npm run build`
 * compiles the server, once per run: what is measured is the code `npm start` runs, not tsx's
 * on-the-fly transform (which adds a call per named inner function). Answers the compiled file, to
 * fork without `--import tsx`.
 */
export function compiledTarget(source: string): Promise<string> {
  let compiled = compiling.get(source);
  if (!compiled) {
    const outfile = path.join(
      COMPILED_DIR,
      `${path.basename(path.dirname(source))}-${path.basename(source, '.ts')}.js`,
    );
    compiled = bundleServer({ entryPoint: source, outfile }).then(() => outfile);
    compiling.set(source, compiled);
  }
  return compiled;
}

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
    const stop = () => {
      clearTimeout(timer);
      child.off('message', listener);
      child.off('exit', onExit);
    };
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`timeout waiting for ${type}`));
    }, timeoutMs);
    const listener = (message: T) => {
      if (message.type !== type) return;
      stop();
      resolve(message);
    };
    const onExit = (code: number | null) => {
      stop();
      reject(new Error(`child exited (${code}) while waiting for ${type}`));
    };
    child.on('message', listener);
    child.once('exit', onExit);
  });
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

type CountedKey = keyof Omit<
  WorkerResult,
  'ownerLatencies' | 'adminLatencies' | 'adminBytes' | 'adminCells' | 'reasons'
>;

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

/**
 * Where results go: docs/ by default; `BENCH_RECORD_DIR` (set by `npm run bench -- --quick`) keeps a
 * smoke run's figures out of the record.
 */
const recordFile = (name: string) =>
  process.env.BENCH_RECORD_DIR
    ? path.join(process.env.BENCH_RECORD_DIR, name)
    : fileURLToPath(new URL(`../docs/${name}`, import.meta.url));

/** One measured figure, side by side with its baseline of the same run when it has one. */
export interface Figure {
  name: string;
  value: number;
  unit: string;
  baseline?: number;
  /** value / baseline. */
  ratio?: number;
  /** The goal, in the figure's unit or as a ratio, and whether this run meets it. */
  goal?: string;
  met?: boolean;
}

/** A figure compared with its baseline (the ratio computed here, so every benchmark states it alike). */
export function compared(figure: Omit<Figure, 'ratio'> & { baseline: number }): Figure {
  return { ...figure, ratio: figure.value / figure.baseline };
}

/** The details a benchmark recorded last time, if any. */
export function recordedDetails<T>(key: string): T | undefined {
  const jsonFile = recordFile('benchmarks.json');
  if (!existsSync(jsonFile)) return undefined;
  const all = JSON.parse(readFileSync(jsonFile, 'utf8')) as Record<string, { details?: T }>;
  return all[key]?.details;
}

/**
 * Writes a benchmark's results: its section of docs/benchmarks.md (from `heading` to the next `## `,
 * keeping the section's hand-written "### Notes") and its key of docs/benchmarks.json: the figures
 * (value, unit, baseline, ratio, goal), the machine and date, and the raw details.
 */
export function recordBenchmark(input: {
  heading: string;
  section: string;
  key: string;
  figures: Figure[];
  details: unknown;
}): void {
  const file = recordFile('benchmarks.md');
  let text = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
  // The whole heading line: "## HTTP" must not find "## HTTP on PostgreSQL".
  const start = text.indexOf(`\n${input.heading}\n`);
  if (start === -1) text = `${text.trimEnd()}\n\n${input.section}`;
  else {
    const next = text.indexOf('\n## ', start + 1);
    const previous = text.slice(start, next === -1 ? undefined : next);
    const notesAt = previous.indexOf('\n### Notes');
    const notes = notesAt === -1 ? '' : `${previous.slice(notesAt).trimEnd()}\n`;
    text = `${text.slice(0, start)}\n${input.section}${notes}${next === -1 ? '' : text.slice(next)}`;
  }
  writeFileSync(file, `${text.trimEnd()}\n`);
  const jsonFile = recordFile('benchmarks.json');
  const all = existsSync(jsonFile)
    ? (JSON.parse(readFileSync(jsonFile, 'utf8')) as Record<string, unknown>)
    : {};
  all[input.key] = {
    measuredAt: new Date().toISOString(),
    machine: { cores: os.cpus().length, cpu: os.cpus()[0]?.model ?? 'unknown', node: process.version },
    figures: input.figures,
    details: input.details,
  };
  writeFileSync(jsonFile, `${JSON.stringify(all, null, 2)}\n`);
  writeSummary(file, all as Record<string, RecordedBenchmark>);
}

interface RecordedBenchmark {
  measuredAt: string;
  figures: Figure[];
}

const SUMMARY_START = '<!-- summary: written by bench/shared.ts from docs/benchmarks.json -->';
const SUMMARY_END = '<!-- /summary -->';

const shortNumber = (value: number) =>
  Math.abs(value) >= 100
    ? Math.round(value).toLocaleString('en-US')
    : Number(value.toPrecision(3)).toString();

/** A goal stated as a ratio is read against the ratio, any other against the value. */
const measuredAgainstGoal = (figure: Figure) =>
  figure.goal?.startsWith('ratio') && figure.ratio !== undefined
    ? `${shortNumber(figure.ratio)}×`
    : `${shortNumber(figure.value)} ${figure.unit}`;

/** The one-screen table at the top of docs/benchmarks.md: per benchmark, its goals met and the misses. */
function summaryOf(all: Record<string, RecordedBenchmark>): string {
  const rows = Object.entries(all)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, entry]) => {
      const goals = entry.figures.filter((figure) => figure.met !== undefined);
      const missed = goals.filter((figure) => !figure.met);
      const misses = missed
        .map((figure) => `${figure.name}: ${measuredAgainstGoal(figure)} (goal ${figure.goal})`)
        .join('; ');
      return `| ${key} | ${entry.measuredAt.slice(0, 10)} | ${goals.length - missed.length} / ${goals.length} | ${misses || '—'} |`;
    });
  return [
    SUMMARY_START,
    '| benchmark (`docs/benchmarks.json` key) | measured | goals met | missed: figure, measured (goal) |',
    '|---|---|---|---|',
    ...rows,
    SUMMARY_END,
  ].join('\n');
}

function writeSummary(file: string, all: Record<string, RecordedBenchmark>): void {
  const text = readFileSync(file, 'utf8');
  const summary = summaryOf(all);
  const start = text.indexOf(SUMMARY_START);
  const end = text.indexOf(SUMMARY_END);
  const next =
    start !== -1 && end !== -1
      ? `${text.slice(0, start)}${summary}${text.slice(end + SUMMARY_END.length)}`
      : text.replace(/^(# Benchmarks\n)/, `$1\n${summary}\n`);
  writeFileSync(file, next);
}
