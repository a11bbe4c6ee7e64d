import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { BENCHMARKS } from './benchmarks.ts';
import type { Figure } from './shared.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const recordDir = mkdtempSync(path.join(os.tmpdir(), 'bench-smoke-'));

afterAll(() => rmSync(recordDir, { recursive: true, force: true }));

describe('npm run bench -- --quick', () => {
  it('runs every benchmark end to end and records its figures, each with its baseline ratio', async () => {
    await promisify(execFile)(process.execPath, ['--import', 'tsx', 'bench/run-all.ts', '--quick'], {
      cwd: root,
      env: { ...process.env, BENCH_RECORD_DIR: recordDir },
      maxBuffer: 64 * 1024 * 1024,
    });
    const record = JSON.parse(readFileSync(path.join(recordDir, 'benchmarks.json'), 'utf8')) as Record<
      string,
      { machine: { cores: number; node: string }; figures: Figure[] }
    >;
    expect(Object.keys(record).sort()).toEqual(BENCHMARKS.map((benchmark) => benchmark.key).sort());
    for (const [key, entry] of Object.entries(record)) {
      expect(entry.machine, key).toEqual(
        expect.objectContaining({ cores: os.cpus().length, node: process.version }),
      );
      expect(entry.figures.length, key).toBeGreaterThan(0);
      for (const figure of entry.figures) {
        expect(Number.isFinite(figure.value), `${key}: ${figure.name}`).toBe(true);
        if (figure.baseline !== undefined && figure.ratio !== undefined)
          expect(figure.ratio, `${key}: ${figure.name}`).toBeCloseTo(figure.value / figure.baseline, 6);
      }
    }
    const markdown = readFileSync(path.join(recordDir, 'benchmarks.md'), 'utf8');
    const headings = [
      '## HTTP',
      '## HTTP on PostgreSQL',
      '## Real-time',
      '## Real-time on PostgreSQL',
      '## Reconnect storm',
      '## Staff map feed',
      '## Lighthouse',
      '## Scale-out',
      '## Revocation',
    ];
    for (const heading of headings) expect(markdown).toContain(heading);
  });
});
