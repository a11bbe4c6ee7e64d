import { createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { StartupError } from './startup-errors.ts';

/**
 * The master key seals every secret the server keeps at rest (bot access keys, TOTP secrets, the
 * signing keys' private halves). It never lives in the database nor in DATA_DIR: a copy of the data
 * folder or of a backup holds only sealed values (docs/security.md, "Storage";
 * docs/decisions/913-master-key-outside-the-data.md).
 *
 * Where it comes from (config.ts): `MASTER_KEY` (the value), `MASTER_KEY_FILE` (a file holding it,
 * a Docker secret in containers), or on the embedded database without either a file beside the data
 * folder, created at the first start. With PostgreSQL it must be given: every node needs the same one.
 */
export type MasterKeySource =
  | { kind: 'value'; value: string }
  | { kind: 'file'; path: string; createIfMissing: boolean }
  /** DATABASE_URL without a key: a configuration problem app.ts refuses to start with. */
  | { kind: 'missing' };

const MASTER_KEY_BYTES = 32;

/** How an operator makes one (named in every message about a bad key). */
const MASTER_KEY_COMMAND = 'openssl rand -base64 32';

/** MASTER_KEY as config.ts parses it: the message names the variable's expected form, never its value. */
export const masterKeyText = z.string().refine((value) => parseMasterKey(value) !== undefined, {
  message: `32 octets aléatoires en base64 attendus (${MASTER_KEY_COMMAND})`,
});

/** With PostgreSQL and no key: one of the problems that stop a start (config.installation). */
export const MISSING_MASTER_KEY = `DATABASE_URL sans clé maîtresse : définissez MASTER_KEY_FILE (un fichier d’une ligne : ${MASTER_KEY_COMMAND}) ou MASTER_KEY, la même sur chaque nœud ; avec PostgreSQL le serveur n’en crée pas.`;

/** MASTER_KEY, else MASTER_KEY_FILE, else (embedded database only) the default file beside DATA_DIR. */
export function masterKeySource(input: {
  value: string | undefined;
  file: string | undefined;
  shared: boolean;
  dataDir: string;
}): MasterKeySource {
  if (input.value) return { kind: 'value', value: input.value };
  if (input.file) return { kind: 'file', path: path.resolve(input.file), createIfMissing: false };
  if (input.shared) return { kind: 'missing' };
  return { kind: 'file', path: defaultMasterKeyFile(input.dataDir), createIfMissing: true };
}

/** The embedded default: `<DATA_DIR>.master-key`, beside the data folder, never inside it. */
function defaultMasterKeyFile(dataDir: string): string {
  const resolved = path.resolve(dataDir);
  return path.join(path.dirname(resolved), `${path.basename(resolved)}.master-key`);
}

/** 32 bytes written in base64 (or base64url); undefined when the text is anything else. */
export function parseMasterKey(text: string): Buffer | undefined {
  const trimmed = text.trim();
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) return undefined;
  const key = Buffer.from(trimmed.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return key.length === MASTER_KEY_BYTES ? key : undefined;
}

export function newMasterKeyText(): string {
  return `${randomBytes(MASTER_KEY_BYTES).toString('base64')}\n`;
}

/**
 * The master key of this start: read from its source, or created (mode 0600, then announced on the
 * console) when it is the embedded default and does not exist yet. Throws a StartupError in French
 * for a missing or malformed key.
 */
export function loadMasterKey(
  source: MasterKeySource,
  announce: (line: string) => void = console.log,
): Buffer {
  if (source.kind === 'missing')
    throw new StartupError(
      `Aucune clé maîtresse : définissez MASTER_KEY_FILE ou MASTER_KEY (${MASTER_KEY_COMMAND}).`,
    );
  if (source.kind === 'value') {
    const key = parseMasterKey(source.value);
    if (!key)
      throw new StartupError(
        `MASTER_KEY doit contenir 32 octets aléatoires en base64 (${MASTER_KEY_COMMAND}).`,
      );
    return key;
  }
  if (source.createIfMissing) createMasterKeyFile(source.path, announce);
  let text: string;
  try {
    text = readFileSync(source.path, 'utf8');
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw new StartupError(
      code === 'ENOENT'
        ? `Le fichier de clé maîtresse ${source.path} (MASTER_KEY_FILE) n’existe pas. Créez-le (${MASTER_KEY_COMMAND} > ${source.path}, droits 0600) ou corrigez MASTER_KEY_FILE ; si ces données ont déjà servi, il faut la clé avec laquelle elles ont été scellées.`
        : `Le fichier de clé maîtresse ${source.path} est illisible (${code ?? 'erreur'}) : vérifiez ses droits (lisible par l’utilisateur du serveur seulement).`,
    );
  }
  const key = parseMasterKey(text);
  if (!key)
    throw new StartupError(
      `Le fichier de clé maîtresse ${source.path} doit contenir une ligne : 32 octets aléatoires en base64 (${MASTER_KEY_COMMAND}).`,
    );
  keepPrivate(source.path);
  return key;
}

/** Writes a fresh key at `file` unless one is there (another process may create it at the same time). */
function createMasterKeyFile(file: string, announce: (line: string) => void): void {
  try {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(file, newMasterKeyText(), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'EEXIST') return;
    throw new StartupError(
      `Impossible de créer la clé maîtresse ${file} (${code ?? 'erreur'}) : rendez ${path.dirname(file)} accessible en écriture, ou donnez la clé par MASTER_KEY_FILE ou MASTER_KEY (${MASTER_KEY_COMMAND}).`,
    );
  }
  announce(
    `\n  Clé maîtresse créée : ${file}\n  Elle scelle les secrets de la base (clés d’accès des bots, secrets de double authentification, clés de signature).\n  Sauvegardez-la à part des données et des sauvegardes : sans elle, ces secrets sont perdus ; avec elles, ils sont lisibles.\n`,
  );
}

/**
 * A key file others can read is tightened to 0600 when this user owns it; a read-only secret mount
 * (Docker, Kubernetes) stays as mounted.
 */
function keepPrivate(file: string): void {
  try {
    const stat = statSync(file);
    if ((stat.mode & 0o077) !== 0 && stat.uid === process.getuid?.()) chmodSync(file, 0o600);
  } catch {
    // Not ours to change: the mount decides.
  }
}

/**
 * A key for one purpose, derived from the master key (HKDF-SHA256): each use gets its own key, and
 * none of them is the master key itself.
 */
function deriveKey(masterKey: Buffer, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', masterKey, '', `bot-platform:${purpose}`, 32));
}

/** The key that seals secrets at rest (`ctx.sealingKey`). */
export function sealingKeyOf(masterKey: Buffer): Buffer {
  return deriveKey(masterKey, 'secrets-at-rest-v1');
}

/**
 * What the database records of the master key that sealed its secrets: a MAC that shows whether
 * a master key is the same, without revealing it or any key derived for sealing.
 */
export function masterKeyCheckOf(masterKey: Buffer): string {
  return createHmac('sha256', deriveKey(masterKey, 'master-key-check-v1'))
    .update('master-key-check')
    .digest('base64url');
}
