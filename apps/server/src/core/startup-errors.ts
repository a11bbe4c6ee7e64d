import { statfsSync } from 'node:fs';
/**
 * Start-up failures an operator can fix, each told in one French paragraph (what is wrong, what to
 * do) instead of a stack trace. `explainStartupError` recognises the usual causes by their codes.
 */
export class StartupError extends Error {
  override readonly name = 'StartupError';
}

interface ErrorLike {
  name?: string;
  code?: string;
  errno?: number;
  syscall?: string;
  address?: string;
  port?: number;
  path?: string;
  message?: string;
  cause?: unknown;
}

/** The French paragraph for a start-up failure, or undefined when the cause is not a known one. */
export function explainStartupError(
  error: unknown,
  context: { dataDir: string; port: number; host: string },
): string | undefined {
  for (
    let current = error as ErrorLike | undefined;
    current;
    current = current.cause as ErrorLike | undefined
  ) {
    if (current instanceof StartupError) return current.message;
    const explained = explainOne(current, context);
    if (explained) return explained;
  }
  return undefined;
}

function explainOne(
  error: ErrorLike,
  { dataDir, port, host }: { dataDir: string; port: number; host: string },
): string | undefined {
  const message = error.message ?? '';
  if (error.syscall === 'listen' && error.code === 'EADDRINUSE')
    return `Le port ${port} de ${host} est déjà utilisé par un autre programme (peut-être un serveur déjà démarré). Arrêtez-le ou choisissez un autre port avec la variable PORT.`;
  if (error.syscall === 'listen' && (error.code === 'EACCES' || error.code === 'EADDRNOTAVAIL'))
    return `Impossible d’écouter sur ${host}:${port} (${error.code}). Vérifiez HOST (une adresse de cette machine) et PORT (au-dessus de 1024 sans droits administrateur).`;
  if (error.code === '28P01' || /password authentication failed/i.test(message))
    return 'PostgreSQL refuse l’identifiant ou le mot de passe de DATABASE_URL. Corrigez-les dans DATABASE_URL (postgres://utilisateur:motdepasse@hôte:port/base).';
  if (error.code === '3D000')
    return 'La base de données nommée dans DATABASE_URL n’existe pas sur le serveur PostgreSQL. Créez-la (createdb) ou corrigez son nom.';
  if (
    ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH'].includes(error.code ?? '') ||
    /timeout exceeded when trying to connect|Connection terminated/i.test(message)
  )
    return `Le serveur PostgreSQL de DATABASE_URL est injoignable (${error.code ?? 'délai dépassé'}). Vérifiez qu’il est démarré, l’hôte et le port de DATABASE_URL, et qu’aucun pare-feu ne bloque la connexion.`;
  if (error.code === 'ENOSPC' || error.code === '53100' || /No space left on device/i.test(message))
    return diskFullAdvice(dataDir);
  if (/^Aborted\(\)|PGlite failed to initialize/.test(message) && isNearlyFull(dataDir))
    return diskFullAdvice(dataDir);
  if (/^Aborted\(\)|PGlite failed to initialize/.test(message))
    return `La base embarquée de ${dataDir}/pglite est illisible (fichiers endommagés ou écrits par une autre version). Restaurez une sauvegarde (npm run restore), ou déplacez ce dossier pour repartir d’une base vide.`;
  if (['EACCES', 'EPERM', 'EROFS', 'ENOTDIR', 'ENOSPC', 'EEXIST'].includes(error.code ?? '') && error.path)
    return `Le dossier de données ${dataDir} n’est pas utilisable en écriture (${error.code} sur ${error.path}). Choisissez un dossier accessible en écriture avec la variable DATA_DIR, ou libérez de la place sur le disque.`;
  return undefined;
}

/** A full disk is not damage: free space and start again, everything acknowledged is there. */
function diskFullAdvice(dataDir: string): string {
  return `Le disque de ${dataDir} est plein. Libérez de la place (df -h ${dataDir}) puis relancez : les données ne sont pas endommagées, ne restaurez pas de sauvegarde.`;
}

/**
 * The embedded database aborts without saying why when it cannot write: a disk with almost no room
 * left (under 1 MiB) tells that cause apart from real damage.
 */
function isNearlyFull(dataDir: string): boolean {
  try {
    const { bavail, bsize } = statfsSync(dataDir);
    return bavail * bsize < 1024 * 1024;
  } catch {
    return false;
  }
}
