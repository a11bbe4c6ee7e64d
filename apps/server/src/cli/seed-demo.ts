/**
 * `npm run seed:demo [-- --users 1000]`: activated demo users holding both bot permissions, a bound
 * hwid, one to three whitelisted game accounts and an open bot session each; their access keys go
 * to `DATA_DIR/demo-bots.json`, which `npm run simulate` reads (both run from the repository root,
 * so a relative `DATA_DIR` is the one `npm start` uses). Idempotent: run it again to renew
 * the bot sessions (they expire after a day).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DEMO_AGENT_VERSION, type DemoBot, type DemoBotsFile } from '@bot/bot-agent';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { inTransaction } from '../context.ts';
import { newId } from '../core/ids.ts';
import { hashPassword } from '../core/passwords.ts';
import { usePrivateUmask } from '../core/private-files.ts';
import {
  getUserPermissions,
  grantPermission,
  invalidateUserPermissions,
  removeGrants,
} from '../modules/access/index.ts';
import { openBotSession } from '../modules/bots/index.ts';
import { updateFor } from '../modules/releases/index.ts';
import { createUser, findUserByUsername, getOrCreateBotKey } from '../modules/users/index.ts';
import { addWhitelistEntryForCustomer, listWhitelistedAccountNames } from '../modules/whitelist/index.ts';

const DEMO_PASSWORD = 'Demo-Bot-Platform-2026';
const SEED_ACTOR = { id: null, username: 'seed:demo', ip: null };

async function main(): Promise<void> {
  usePrivateUmask(); // demo-bots.json holds access keys
  const { values } = parseArgs({
    options: {
      users: { type: 'string', default: '1000' },
      prefix: { type: 'string', default: 'demo' },
      // No "Ensuite" line: `npm run cluster` starts the server and the simulator itself.
      'without-next-steps': { type: 'boolean', default: false },
    },
  });
  const count = Number(values.users);
  if (!Number.isInteger(count) || count < 1 || count > 100_000) {
    console.error('--users doit être un entier entre 1 et 100000.');
    process.exit(1);
  }
  const config = { ...loadConfig(), logLevel: 'warn' as const };
  const serverUrl = `http://${config.host}:${config.port}`;
  if (!config.databaseUrl && (await isServerRunning(serverUrl))) {
    console.error(
      `Un serveur répond sur ${serverUrl} avec la base embarquée (PGlite, un seul processus à la fois).\n` +
        'Arrêtez-le, lancez npm run seed:demo, puis redémarrez-le.',
    );
    process.exit(1);
  }
  const app = await buildApp({ config });
  const { ctx } = app;
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const bots: DemoBot[] = [];
  const startedAt = Date.now();
  try {
    for (let i = 1; i <= count; i += 1) {
      const username = `${values.prefix}${String(i).padStart(4, '0')}`;
      bots.push(await seedDemoUser(ctx, { username, passwordHash, index: i }));
      if (i % 100 === 0) console.log(`  ${i}/${count} utilisateurs de démonstration`);
    }
  } finally {
    await app.close();
  }
  const file: DemoBotsFile = {
    version: 1,
    createdAt: new Date().toISOString(),
    serverUrl,
    agentVersion: DEMO_AGENT_VERSION,
    password: DEMO_PASSWORD,
    bots,
  };
  const target = path.join(config.dataDir, 'demo-bots.json');
  await mkdir(config.dataDir, { recursive: true });
  await writeFile(target, `${JSON.stringify(file, null, 1)}\n`, { mode: 0o600 });
  // The next commands need the same variables: the server and the simulator find this file and
  // each other through them.
  const sameEnv = ['PORT', 'HOST', 'DATA_DIR', 'DATABASE_URL', 'MASTER_KEY_FILE']
    .filter((name) => process.env[name])
    .map((name) => `${name}=${process.env[name]} `)
    .join('');
  console.log(
    `${count} utilisateurs de démonstration prêts en ${((Date.now() - startedAt) / 1000).toFixed(1)} s ` +
      `(mot de passe : ${DEMO_PASSWORD}).\nClés d’accès écrites dans ${target}`,
  );
  if (!values['without-next-steps'])
    console.log(
      `Ensuite : ${sameEnv}npm start, puis ${sameEnv}npm run simulate -- --bots ${Math.min(count, 200)}`,
    );
}

async function seedDemoUser(
  ctx: Awaited<ReturnType<typeof buildApp>>['ctx'],
  input: { username: string; passwordHash: string; index: number },
): Promise<DemoBot> {
  let user = await findUserByUsername(ctx, input.username);
  if (!user) {
    user = await createUser(ctx, {
      username: input.username,
      email: `${input.username}@demo.localhost`,
      passwordHash: input.passwordHash,
      activatedAt: new Date(),
    });
  }
  const held = await getUserPermissions(ctx, user.id);
  const missing = (['can_useGathering', 'can_useTreasure'] as const).filter((name) => !held.includes(name));
  await inTransaction(ctx, async (tx) => {
    for (const permission of missing) {
      await removeGrants(tx, { userId: user.id, permission });
      await grantPermission(tx, {
        id: newId(),
        userId: user.id,
        permission,
        expiresAt: null,
        source: 'manual',
      });
    }
    if (missing.length > 0) invalidateUserPermissions(tx, user.id);
  });

  let accounts = await listWhitelistedAccountNames(ctx, user.id);
  if (accounts.length === 0) {
    const wanted = 1 + (input.index % 3);
    for (let n = 1; n <= wanted; n += 1) {
      await addWhitelistEntryForCustomer(ctx, {
        username: user.username,
        name: `${input.username}-perso${n}`,
        actor: SEED_ACTOR,
      });
    }
    accounts = await listWhitelistedAccountNames(ctx, user.id);
  }
  const accessKey = await getOrCreateBotKey(ctx, user.id);
  const hwid = user.hwid ?? `DEMO-${input.username.toUpperCase()}-${newId().slice(-12)}`;
  const session = await openBotSession(
    ctx,
    { accessKey, hwid, version: DEMO_AGENT_VERSION, ip: null },
    updateFor,
  );
  return {
    username: user.username,
    accessKey,
    hwid,
    accounts,
    session: { token: session.token, expiresAt: session.expiresAt, lease: session.lease },
  };
}

async function isServerRunning(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/api/healthz`, { signal: AbortSignal.timeout(1000) });
    return response.ok;
  } catch {
    return false;
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
