/**
 * `--postgres` (real-time and HTTP benchmarks): a throw-away PostgreSQL server for one server target
 * (scripts/test-postgres.sh on a free port, in its own folder), and the CPU its processes use, which
 * counts as the target's: on the embedded database that work runs inside the target's own process.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './shared.ts';

const SCRIPT = fileURLToPath(new URL('../scripts/test-postgres.sh', import.meta.url));
const CLOCK_TICKS = 100;

export interface BenchPostgres {
  url: string;
  /** CPU seconds used so far by the server: the postmaster, its live backends, and those that exited. */
  cpuSeconds(): number;
  stop(): void;
}

export async function startBenchPostgres(): Promise<BenchPostgres> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-pg-'));
  chmodSync(dir, 0o755); // PostgreSQL runs as its own user when we are root
  const env = { ...process.env, PGPORT: String(await freePort()), PGDIR: path.join(dir, 'data') };
  const stop = () => {
    execFileSync('bash', [SCRIPT, 'stop'], { env, stdio: 'ignore' });
    rmSync(dir, { recursive: true, force: true });
  };
  let url: string;
  let postmaster: number;
  try {
    url = execFileSync('bash', [SCRIPT, 'start'], { env }).toString().trim();
    postmaster = Number(readFileSync(path.join(env.PGDIR, 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch (error) {
    stop();
    throw error;
  }
  return {
    url,
    cpuSeconds: () => processTreeCpuSeconds(postmaster),
    stop,
  };
}

/** utime, stime, cutime, cstime and the parent pid of a process, from /proc (undefined once gone). */
function statOf(pid: number): { own: number; children: number; parent: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat
      .slice(stat.lastIndexOf(')') + 2)
      .split(' ')
      .map(Number);
    return { parent: fields[1]!, own: fields[11]! + fields[12]!, children: fields[13]! + fields[14]! };
  } catch {
    return undefined;
  }
}

function processTreeCpuSeconds(root: number): number {
  const rootStat = statOf(root);
  if (!rootStat) return 0;
  // The root's cutime/cstime hold the backends that already exited and were waited for.
  let ticks = rootStat.own + rootStat.children;
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === root) continue;
    const stat = statOf(pid);
    if (stat?.parent === root) ticks += stat.own;
  }
  return ticks / CLOCK_TICKS;
}
