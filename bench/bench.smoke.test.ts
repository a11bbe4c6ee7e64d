import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, inject, it, vi } from 'vitest';
import { BENCHMARKS } from './benchmarks.ts';
import type { Figure } from './shared.ts';

/** Started with the test run (support/smoke-run.ts), beside the other projects' tests. */
const recordDir = inject('benchSmokeDir');

describe('npm run bench -- --quick', () => {
  it('runs every benchmark end to end and records its figures, each with its baseline ratio', async () => {
    const outcome = await vi.waitFor(
      () => JSON.parse(readFileSync(path.join(recordDir, 'outcome.json'), 'utf8')) as { code: number | null },
      { timeout: 600_000, interval: 500 },
    );
    const output = readFileSync(path.join(recordDir, 'output.log'), 'utf8');
    expect(outcome.code, output.slice(-4000)).toBe(0);
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
      '## Capacity and overload',
    ];
    for (const heading of headings) expect(markdown).toContain(heading);
  });
});
