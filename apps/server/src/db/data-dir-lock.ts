import { mkdirSync } from 'node:fs';
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
  try {
    return await lockfile.lock(dataDir, {
      lockfilePath: path.join(dataDir, 'server.lock'),
      realpath: false,
      stale: 15_000,
      update: 5_000,
      retries: 0,
      // A lost lock (disk full, dir removed) must not crash a serving node: say it loudly instead.
      onCompromised: (error) => log.error({ err: error }, 'verrou du dossier de données perdu'),
    });
  } catch (error) {
    if ((error as { code?: string }).code === 'ELOCKED') {
      throw new StartupError(
        `Le dossier de données ${dataDir} est déjà utilisé par un autre serveur en cours d’exécution. Un seul processus peut ouvrir la base embarquée : arrêtez l’autre serveur, ou donnez à celui-ci un autre dossier avec DATA_DIR (ou une base PostgreSQL avec DATABASE_URL pour plusieurs nœuds).`,
      );
    }
    throw error;
  }
}
