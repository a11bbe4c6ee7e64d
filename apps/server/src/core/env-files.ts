import { readFileSync } from 'node:fs';
import { StartupError } from './startup-errors.ts';

/**
 * The secrets an operator may give as a file instead of a value (`NAME_FILE`, a Docker or systemd
 * secret): a variable is visible to anyone who can inspect the container or read the process's
 * environment, a secret file only to the process (docs/operations.md, "Secrets"). MASTER_KEY_FILE is
 * read by core/master-key.ts, which also creates the embedded default.
 */
const SECRETS_FROM_FILES = [
  'ADMIN_PASSWORD',
  'DATABASE_URL',
  'SMTP_URL',
  'METRICS_TOKEN',
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
] as const;

/**
 * The variables set to something (an empty variable means unset: `DATABASE_URL= npm start`), each
 * `NAME_FILE` replaced by `NAME`, read once from its file (the trailing newline an editor or `echo`
 * leaves is dropped; an empty file means unset too). Throws one French StartupError naming every
 * variable whose file cannot be read or that is given twice; never the value.
 */
export function presentWithSecretsFromFiles(source: NodeJS.ProcessEnv): Record<string, string> {
  const env = Object.fromEntries(
    Object.entries(source).filter((entry): entry is [string, string] => Boolean(entry[1])),
  );
  const resolved = { ...env };
  const problems: string[] = [];
  for (const name of SECRETS_FROM_FILES) {
    const file = env[`${name}_FILE`];
    if (file === undefined) continue;
    delete resolved[`${name}_FILE`];
    if (env[name] !== undefined) {
      problems.push(`${name} et ${name}_FILE sont définis : gardez-en un seul.`);
      continue;
    }
    try {
      const value = readFileSync(file, 'utf8').replace(/\r?\n$/, '');
      if (value !== '') resolved[name] = value;
    } catch (error) {
      problems.push(`${name}_FILE : ${unreadable(file, error as NodeJS.ErrnoException)}`);
    }
  }
  if (problems.length > 0)
    throw new StartupError(
      `Configuration invalide : corrigez ces variables d’environnement puis relancez.\n${problems.map((line) => `  - ${line}`).join('\n')}`,
    );
  return resolved;
}

function unreadable(file: string, error: NodeJS.ErrnoException): string {
  if (error.code === 'ENOENT') return `le fichier ${file} est introuvable.`;
  if (error.code === 'EACCES')
    return `le fichier ${file} est illisible (droits : il doit être lisible par l’utilisateur du serveur).`;
  if (error.code === 'EISDIR') return `${file} est illisible : c’est un dossier, pas un fichier.`;
  return `le fichier ${file} est illisible (${error.code ?? error.message}).`;
}
