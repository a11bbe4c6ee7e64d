import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Logger } from 'pino';
import lockfile from 'proper-lockfile';
import { StartupError } from '../core/startup-errors.ts';

/**
 * One process per embedded database: PGlite is a single-process engine, and two servers on one
 * DATA_DIR silently lose acknowledged writes. The lock is a directory created atomically next to
 * the data and refreshed every few seconds; a crashed holder's lock goes stale and is taken over.
 * Returns the release function.
 */
export async function lockDataDir(dataDir: string, log: Logger): Promise<() => Promise<void>> {
  mkdirSync(dataDir, { recursive: true });
  const lockPath = path.join(dataDir, 'server.lock');
  const ownerPath = `${lockPath}.owner`;
  const lock = () =>
    lockfile.lock(dataDir, {
      lockfilePath: lockPath,
      realpath: false,
      stale: 15_000,
      update: 5_000,
      retries: 0,
      // A lost lock (disk full, dir removed) must not crash a serving node: say it loudly instead.
      onCompromised: (error) => log.error({ err: error }, 'verrou du dossier de données perdu'),
    });
  try {
    let release: () => Promise<void>;
    try {
      release = await lock();
    } catch (error) {
      // A holder killed outright (SIGKILL, crash) leaves a fresh lock for up to `stale`: when it was
      // this machine's process and it is gone, take over at once instead of failing the restart.
      if ((error as { code?: string }).code !== 'ELOCKED' || !isOwnerGone(ownerPath)) throw error;
      rmSync(lockPath, { recursive: true, force: true });
      release = await lock();
    }
    try {
      writeFileSync(ownerPath, JSON.stringify({ pid: process.pid, host: os.hostname() }));
    } catch (error) {
      // A full disk: give the lock back, or the start after freeing space is refused as "in use".
      await release().catch(() => rmSync(lockPath, { recursive: true, force: true }));
      throw error;
    }
    return async () => {
      rmSync(ownerPath, { force: true });
      // A lock compromised while running (its refresh failed on a full disk) is still ours to
      // remove: left behind, it would refuse the restart that follows as "already used".
      await release().catch(() => rmSync(lockPath, { recursive: true, force: true }));
    };
  } catch (error) {
    if ((error as { code?: string }).code === 'ELOCKED') {
      throw new StartupError(
        `Le dossier de données ${dataDir} est déjà utilisé par un autre serveur en cours d’exécution. Un seul processus peut ouvrir la base embarquée : arrêtez l’autre serveur, ou donnez à celui-ci un autre dossier avec DATA_DIR (ou une base PostgreSQL avec DATABASE_URL pour plusieurs nœuds).`,
      );
    }
    throw error;
  }
}

/** True when the recorded holder of the lock was a process of this machine that no longer runs. */
function isOwnerGone(ownerPath: string): boolean {
  try {
    const owner = JSON.parse(readFileSync(ownerPath, 'utf8')) as { pid: number; host: string };
    if (owner.host !== os.hostname()) return false;
    process.kill(owner.pid, 0);
    return false;
  } catch (error) {
    return (error as { code?: string }).code === 'ESRCH';
  }
}
