import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { cp, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { DEFAULT_ALERT_PREFERENCES } from '@bot/contracts';
import { eq } from 'drizzle-orm';
import { createLocalJWKSet, importJWK, type JSONWebKeySet, type JWK, jwtVerify, SignJWT } from 'jose';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { contextOf, inTransaction } from '../src/context.ts';
import { seal, unseal } from '../src/core/sealing.ts';
import {
  alertPreferences,
  discordOutbox,
  getAlertPreferences,
  saveAlertPreferences,
} from '../src/modules/alerts/index.ts';
import { twoFactor } from '../src/modules/auth/index.ts';
import { currentSigner, signingKeys } from '../src/modules/licensing/index.ts';
import { mailOutbox, queueMail } from '../src/modules/mail/index.ts';
import { serverSecrets } from '../src/modules/settings/index.ts';
import { getOrCreateBotKey, users } from '../src/modules/users/index.ts';
import { LEGACY_SEALING_SECRET, MASTER_KEY_CHECK } from '../src/secrets-at-rest.ts';
import { startTestServer, TEST_MASTER_KEY, type TestServer } from './harness.ts';

const dirs: string[] = [];
const servers: TestServer[] = [];
afterAll(async () => {
  for (const server of servers) await server.close();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

const run = promisify(execFile);
const rootDir = fileURLToPath(new URL('../../..', import.meta.url));

const otherMasterKey = () => randomBytes(32).toString('base64');

/** A server on an embedded database in a folder of its own, which outlives it (restart, copy). */
async function embeddedServer(): Promise<TestServer> {
  const server = await startTestServer({ openDatabaseFromConfig: true });
  servers.push(server);
  dirs.push(server.ctx.config.dataDir);
  return server;
}

/** An embedded server holding each kind of sealed secret: a bot key, the signing keys, a lease they signed. */
async function serverWithSecrets() {
  const server = await embeddedServer();
  const { ctx } = server;
  const owner = await server.createUser();
  const botKey = await getOrCreateBotKey(ctx, owner.user.id);
  const signer = await currentSigner(ctx);
  const lease = await new SignJWT({ sub: owner.user.id })
    .setProtectedHeader({ alg: 'EdDSA', kid: signer.kid })
    .sign(signer.privateKey);
  return { server, ctx, owner, botKey, lease };
}

/** The app itself on a data folder (no listening server): how a copied folder is started. */
async function buildOn(dataDir: string, masterKey: string) {
  return buildApp({ config: loadConfig({ DATA_DIR: dataDir, MASTER_KEY: masterKey, LOG_LEVEL: 'silent' }) });
}

/** Signs a token with the private half the database holds, unsealed with the app's sealing key. */
async function signWithStoredKey(app: Awaited<ReturnType<typeof buildOn>>): Promise<string> {
  const [row] = await contextOf(app).db.select().from(signingKeys).where(eq(signingKeys.purpose, 'lease'));
  const jwk = JSON.parse(unseal(row!.privateJwkSealed, contextOf(app).sealingKey)) as JWK;
  return new SignJWT({ sub: 'copie' })
    .setProtectedHeader({ alg: 'EdDSA', kid: row!.kid })
    .sign(await importJWK(jwk, 'EdDSA'));
}

async function verifiesWithPublishedKeys(app: Awaited<ReturnType<typeof buildOn>>, token: string) {
  const answer = await app.inject({ method: 'GET', url: '/.well-known/jwks.json' });
  const { payload } = await jwtVerify(token, createLocalJWKSet(answer.json() as JSONWebKeySet));
  return payload;
}

describe('the master key lives outside the data', () => {
  it('a stolen data folder started with another master key refuses to start; with the right key nothing is lost', {
    timeout: 120_000,
  }, async () => {
    const { server, ctx, owner, botKey, lease } = await serverWithSecrets();
    // Nothing in the database is the key: what it seals with is not stored beside it.
    const secrets = await ctx.db.select().from(serverSecrets);
    expect(secrets.map((row) => row.name)).toEqual([MASTER_KEY_CHECK]);
    expect(secrets.some((row) => row.value === ctx.sealingKey.toString('base64url'))).toBe(false);

    const stolen = await mkdtemp(path.join(os.tmpdir(), 'bot-stolen-'));
    dirs.push(stolen);
    await server.restart(async () => {
      await cp(ctx.config.dataDir, stolen, { recursive: true });
    });

    // The thief's server, with a key of its own: refused before serving, saying why.
    await expect(buildOn(stolen, otherMasterKey())).rejects.toThrow(
      'La clé maîtresse ne correspond pas à ces données',
    );

    // The owner's key on the same copy: the bot key, the signing key and the leases all work.
    const restored = await buildOn(stolen, TEST_MASTER_KEY);
    try {
      expect(await getOrCreateBotKey(restored.ctx, owner.user.id)).toBe(botKey);
      expect((await verifiesWithPublishedKeys(restored, lease)).sub).toBe(owner.user.id);
      const signedByCopy = await signWithStoredKey(restored);
      expect((await verifiesWithPublishedKeys(restored, signedByCopy)).sub).toBe('copie');
    } finally {
      await restored.close();
    }
  });

  it('an installation whose sealing key sat in server_secrets is re-sealed under the master key at start, the old key deleted', {
    timeout: 120_000,
  }, async () => {
    const { server, ctx, owner, botKey, lease } = await serverWithSecrets();
    const totpSecret = 'JBSWY3DPEHPK3PXP';

    // The layout before the master key: every secret sealed under a key stored in server_secrets.
    const legacyKey = randomBytes(32);
    await ctx.db.transaction(async (db) => {
      const [user] = await db.select().from(users).where(eq(users.id, owner.user.id));
      await db
        .update(users)
        .set({ botKeySealed: seal(unseal(user!.botKeySealed!, ctx.sealingKey), legacyKey) })
        .where(eq(users.id, owner.user.id));
      await db.insert(twoFactor).values({ userId: owner.user.id, secretSealed: seal(totpSecret, legacyKey) });
      for (const row of await db.select().from(signingKeys))
        await db
          .update(signingKeys)
          .set({ privateJwkSealed: seal(unseal(row.privateJwkSealed, ctx.sealingKey), legacyKey) })
          .where(eq(signingKeys.kid, row.kid));
      await db.delete(serverSecrets);
      await db
        .insert(serverSecrets)
        .values({ name: LEGACY_SEALING_SECRET, value: legacyKey.toString('base64url') });
    });

    await server.restart();
    const upgraded = server.app;
    const names = (await contextOf(upgraded).db.select().from(serverSecrets)).map((row) => row.name);
    expect(names).toEqual([MASTER_KEY_CHECK]);
    expect(await getOrCreateBotKey(upgraded.ctx, owner.user.id)).toBe(botKey);
    const [totp] = await contextOf(upgraded)
      .db.select()
      .from(twoFactor)
      .where(eq(twoFactor.userId, owner.user.id));
    expect(unseal(totp!.secretSealed, upgraded.ctx.sealingKey)).toBe(totpSecret);
    expect(() => unseal(totp!.secretSealed, legacyKey)).toThrow();
    const [row] = await contextOf(upgraded)
      .db.select({ sealed: users.botKeySealed })
      .from(users)
      .where(eq(users.id, owner.user.id));
    expect(() => unseal(row!.sealed!, legacyKey)).toThrow();
    expect((await verifiesWithPublishedKeys(upgraded, lease)).sub).toBe(owner.user.id);
    expect((await verifiesWithPublishedKeys(upgraded, await signWithStoredKey(upgraded))).sub).toBe('copie');

    // Upgraded once: the next start with the same key opens it as it is.
    await server.restart();
    expect(await getOrCreateBotKey(server.ctx, owner.user.id)).toBe(botKey);
  });

  it('npm run keys:master-rotate re-seals every secret under a new key: the old key is refused, the new one opens everything', {
    timeout: 120_000,
  }, async () => {
    const { server, ctx, owner, botKey, lease } = await serverWithSecrets();
    const copy = await mkdtemp(path.join(os.tmpdir(), 'bot-rotate-'));
    dirs.push(copy);
    await server.restart(async () => {
      await cp(ctx.config.dataDir, path.join(copy, 'data'), { recursive: true });
    });
    const dataDir = path.join(copy, 'data');
    const newKeyFile = path.join(copy, 'nouvelle.master-key');

    const { stdout } = await run(
      'npm',
      ['run', '--silent', 'keys:master-rotate', '--', '--out', newKeyFile],
      {
        cwd: rootDir,
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', MASTER_KEY: TEST_MASTER_KEY },
      },
    );
    expect(stdout).toContain('Secrets re-scellés sous une nouvelle clé maîtresse');
    expect((await stat(newKeyFile)).mode & 0o777).toBe(0o600);

    await expect(buildOn(dataDir, TEST_MASTER_KEY)).rejects.toThrow(
      'La clé maîtresse ne correspond pas à ces données',
    );
    const rotated = await buildOn(dataDir, (await readFile(newKeyFile, 'utf8')).trim());
    try {
      expect(await getOrCreateBotKey(rotated.ctx, owner.user.id)).toBe(botKey);
      expect((await verifiesWithPublishedKeys(rotated, lease)).sub).toBe(owner.user.id);
      expect((await verifiesWithPublishedKeys(rotated, await signWithStoredKey(rotated))).sub).toBe('copie');
    } finally {
      await rotated.close();
    }
  });

  it('npm run keys:master-rotate re-seals the Discord webhooks and the waiting mails’ bodies too', {
    timeout: 120_000,
  }, async () => {
    const server = await embeddedServer();
    const { ctx } = server;
    const owner = await server.createUser();
    const webhook = `https://discord.com/api/webhooks/123456789012345678/${randomBytes(30).toString('base64url')}`;
    await saveAlertPreferences(ctx, owner.user.id, {
      ...DEFAULT_ALERT_PREFERENCES,
      channels: { inApp: true, email: false, discord: true },
      discordWebhookUrl: webhook,
    });
    // A mail the SMTP server refuses: it stays in the outbox, its body sealed.
    server.mail.isRefusing = true;
    await inTransaction(ctx, (tx) =>
      queueMail(tx, {
        to: 'rotation@example.test',
        subject: 'Lien',
        text: 'lien secret',
        html: '<p>lien secret</p>',
      }),
    );
    const copy = await mkdtemp(path.join(os.tmpdir(), 'bot-rotate-'));
    dirs.push(copy);
    await server.restart(async () => {
      await cp(ctx.config.dataDir, path.join(copy, 'data'), { recursive: true });
    });
    server.mail.isRefusing = false;
    const dataDir = path.join(copy, 'data');
    const newKeyFile = path.join(copy, 'nouvelle.master-key');
    await run('npm', ['run', '--silent', 'keys:master-rotate', '--', '--out', newKeyFile], {
      cwd: rootDir,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', MASTER_KEY: TEST_MASTER_KEY },
    });

    const rotated = await buildOn(dataDir, (await readFile(newKeyFile, 'utf8')).trim());
    try {
      expect((await getAlertPreferences(rotated.ctx, owner.user.id)).discordWebhookUrl).toBe(webhook);
      const [mail] = await contextOf(rotated)
        .db.select()
        .from(mailOutbox)
        .where(eq(mailOutbox.to, 'rotation@example.test'));
      expect(JSON.parse(unseal(mail!.bodySealed!, rotated.ctx.sealingKey)).text).toBe('lien secret');
    } finally {
      await rotated.close();
    }
  });

  it('the webhooks and waiting mails an older version kept in clear are sealed at the first start, the clear columns emptied', {
    timeout: 120_000,
  }, async () => {
    const server = await embeddedServer();
    const { ctx } = server;
    const owner = await server.createUser();
    const webhook = `https://discord.com/api/webhooks/123456789012345678/${randomBytes(30).toString('base64url')}`;
    // What a version before migration 0024 wrote: the webhook and the mail's body in clear.
    await ctx.db
      .insert(alertPreferences)
      .values({ userId: owner.user.id, channelDiscord: true, legacyDiscordWebhookUrl: webhook });
    const mailId = randomUUID();
    await ctx.db.insert(mailOutbox).values({
      id: mailId,
      to: 'ancien@example.test',
      subject: 'Réinitialisation',
      legacyText: 'lien en clair',
      legacyHtml: '<p>lien en clair</p>',
      nextAttemptAt: new Date(Date.now() + 3_600_000),
    });
    const messageId = randomUUID();
    await ctx.db.insert(discordOutbox).values({
      id: messageId,
      legacyUrl: webhook,
      payload: {},
      nextAttemptAt: new Date(Date.now() + 3_600_000),
    });

    await server.restart();
    const { db, sealingKey } = server.ctx;
    const [preferences] = await db
      .select()
      .from(alertPreferences)
      .where(eq(alertPreferences.userId, owner.user.id));
    expect(preferences!.legacyDiscordWebhookUrl).toBeNull();
    expect(unseal(preferences!.discordWebhookSealed!, sealingKey)).toBe(webhook);
    expect((await getAlertPreferences(server.ctx, owner.user.id)).discordWebhookUrl).toBe(webhook);
    const [message] = await db.select().from(discordOutbox).where(eq(discordOutbox.id, messageId));
    expect(message!.legacyUrl).toBeNull();
    expect(unseal(message!.urlSealed!, sealingKey)).toBe(webhook);
    expect(message!.webhookDigest).toBe(preferences!.discordWebhookDigest);
    const [mail] = await db.select().from(mailOutbox).where(eq(mailOutbox.id, mailId));
    expect([mail!.legacyText, mail!.legacyHtml]).toEqual([null, null]);

    // The sealed mail still leaves, with its body.
    await db.update(mailOutbox).set({ nextAttemptAt: new Date() }).where(eq(mailOutbox.id, mailId));
    const sent = await server.mail.waitFor({ to: 'ancien@example.test', subject: 'Réinitialisation' });
    expect(sent.text).toContain('lien en clair');
  });
});
