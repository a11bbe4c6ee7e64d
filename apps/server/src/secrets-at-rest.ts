import type { Logger } from 'pino';
import { type MasterKeySource, masterKeyCheckOf, sealingKeyOf } from './core/master-key.ts';
import { StartupError } from './core/startup-errors.ts';
import type { Db } from './db/client.ts';
import { resealDiscordWebhooks, sealClearDiscordWebhooks } from './modules/alerts/index.ts';
import { resealTwoFactorSecrets } from './modules/auth/index.ts';
import { resealSigningKeys } from './modules/licensing/index.ts';
import { resealMailBodies, sealClearMailBodies } from './modules/mail/index.ts';
import { claimServerSecret, replaceServerSecret, takeServerSecret } from './modules/settings/index.ts';
import { resealBotKeys } from './modules/users/index.ts';

/**
 * The secrets the database keeps sealed, and the master key they are sealed under (core/master-key.ts,
 * docs/decisions/913-master-key-outside-the-data.md). Runs at start-up, before the context exists:
 * it takes the opened database and answers the sealing key the context carries (`ctx.sealingKey`).
 */

/** Before the master key, the sealing key itself lived in this row, beside what it sealed. */
export const LEGACY_SEALING_SECRET = 'bot-key-sealing';
/** The check of the master key the database's secrets are sealed under (a MAC, not the key). */
export const MASTER_KEY_CHECK = 'master-key-check';

/** Every sealed column, each re-sealed by the module that owns it. */
async function resealEverything(db: Db, from: Buffer, to: Buffer): Promise<Record<string, number>> {
  const ctx = { db };
  return {
    botKeys: await resealBotKeys(ctx, from, to),
    twoFactorSecrets: await resealTwoFactorSecrets(ctx, from, to),
    signingKeys: await resealSigningKeys(ctx, from, to),
    mailBodies: await resealMailBodies(ctx, from, to),
    discordWebhooks: await resealDiscordWebhooks(ctx, from, to),
  };
}

/**
 * What versions before migration 0024 kept in clear (the waiting mails' bodies, the Discord
 * webhooks), sealed under the key of this start; nothing to do once done.
 */
async function sealClearSecrets(db: Db, key: Buffer): Promise<Record<string, number>> {
  const ctx = { db };
  return {
    mailBodies: await sealClearMailBodies(ctx, key),
    discordWebhooks: await sealClearDiscordWebhooks(ctx, key),
  };
}

function whereTheKeyComesFrom(source: MasterKeySource): string {
  if (source.kind === 'value') return 'MASTER_KEY';
  if (source.kind === 'file')
    return source.createIfMissing ? `le fichier ${source.path}` : `MASTER_KEY_FILE (${source.path})`;
  return 'MASTER_KEY_FILE ou MASTER_KEY';
}

/**
 * Checks that `masterKey` is the one the database's secrets are sealed under, and answers the
 * sealing key derived from it. A database of the old layout (its sealing key in `server_secrets`)
 * has every secret re-sealed under the master key and the old row deleted, in one transaction. A
 * wrong master key is a StartupError, never a failure in the middle of a request.
 */
export async function openSecretsAtRest(
  database: { db: Db },
  input: { masterKey: Buffer; source: MasterKeySource; log: Logger },
): Promise<Buffer> {
  const sealingKey = sealingKeyOf(input.masterKey);
  const check = masterKeyCheckOf(input.masterKey);
  const stored = await database.db.transaction(async (db) => {
    const legacy = await takeServerSecret({ db }, LEGACY_SEALING_SECRET);
    if (legacy === undefined) return claimServerSecret({ db }, MASTER_KEY_CHECK, check);
    let counts: Record<string, number>;
    try {
      counts = await resealEverything(db, Buffer.from(legacy, 'base64url'), sealingKey);
    } catch (error) {
      throw new StartupError(
        'Mise à niveau impossible : un secret de la base ne s’ouvre pas avec l’ancienne clé de scellement. Restaurez la dernière sauvegarde puis relancez (docs/operations.md, « Clé maîtresse »).',
        { cause: error },
      );
    }
    await replaceServerSecret({ db }, MASTER_KEY_CHECK, check);
    input.log.warn(
      counts,
      'secrets de la base re-scellés sous la clé maîtresse ; les sauvegardes antérieures contiennent encore l’ancienne clé (docs/operations.md, « Clé maîtresse »)',
    );
    return check;
  });
  if (stored !== check)
    throw new StartupError(
      `La clé maîtresse ne correspond pas à ces données : leurs secrets (clés d’accès des bots, double authentification, clés de signature) ont été scellés avec une autre clé. Donnez au serveur, par ${whereTheKeyComesFrom(input.source)}, la clé maîtresse de cette installation, sauvegardée à part lors de sa première mise en route (docs/operations.md, « Clé maîtresse »).`,
    );
  const sealed = await database.db.transaction((db) => sealClearSecrets(db, sealingKey));
  if (Object.values(sealed).some((count) => count > 0))
    input.log.warn(
      sealed,
      'secrets en clair d’une version antérieure (corps des mails en attente, webhooks Discord) scellés sous la clé maîtresse ; les sauvegardes antérieures les contiennent encore (docs/operations.md, « Clé maîtresse »)',
    );
  return sealingKey;
}

/**
 * Seals every secret under `newMasterKey` instead of `oldMasterKey` and records the new key's
 * check, in one transaction (`npm run keys:master-rotate`). Refuses when `oldMasterKey` is not the
 * one the data is sealed under.
 */
export async function rotateMasterKey(
  database: { db: Db },
  input: { oldMasterKey: Buffer; newMasterKey: Buffer; source: MasterKeySource; log: Logger },
): Promise<Record<string, number>> {
  const from = await openSecretsAtRest(database, {
    masterKey: input.oldMasterKey,
    source: input.source,
    log: input.log,
  });
  return database.db.transaction(async (db) => {
    const counts = await resealEverything(db, from, sealingKeyOf(input.newMasterKey));
    await replaceServerSecret({ db }, MASTER_KEY_CHECK, masterKeyCheckOf(input.newMasterKey));
    return counts;
  });
}
