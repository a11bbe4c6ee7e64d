import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { DEFAULT_ALERT_PREFERENCES } from '@bot/contracts';
import { eq, isNotNull } from 'drizzle-orm';
import type { JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { unseal } from '../../src/core/sealing.ts';
import { signingKeys } from '../../src/modules/licensing/index.ts';
import { mailOutbox } from '../../src/modules/mail/index.ts';
import { apiClient, startTestServer, type TestServer } from '../harness.ts';
import { enrolWith } from '../helpers/two-factor.ts';

/**
 * Attack family 2: a stolen data folder. A real server on an embedded database holds a user with
 * two-factor, a bot key, signing keys and a password-reset mail already sent; the folder is copied
 * while the server is down. From the copy alone: no private key, bot key, TOTP secret or usable
 * one-time link may be read, and no server may start on it without the master key.
 */

let server: TestServer;
let copy: string;
const secrets: Record<string, string> = {};
const dirs: string[] = [];

async function filesUnder(root: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(root, { withFileTypes: true })) {
    const full = path.join(root, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(full)));
    else if (entry.isFile()) out.push(full);
  }
  return out;
}

/** Which files of the copy hold this text, as raw bytes (a PGlite heap page, the WAL...). */
async function filesHolding(text: string): Promise<string[]> {
  const found: string[] = [];
  const needle = Buffer.from(text, 'utf8');
  for (const file of await filesUnder(copy)) {
    if ((await stat(file)).size > 200 * 1024 * 1024) continue;
    if ((await readFile(file)).includes(needle)) found.push(path.relative(copy, file));
  }
  return found;
}

beforeAll(async () => {
  server = await startTestServer({ openDatabaseFromConfig: true });
  dirs.push(server.ctx.config.dataDir);
  const call = apiClient(server);
  const victim = await server.createUser();
  secrets.totp = (await enrolWith(call, victim.token)).secret;
  const key = await call<{ data: { accessKey: string } }>('GET', '/me/bot-key', undefined, victim.token);
  secrets.botKey = key.body.data.accessKey;
  const [lease] = await server.ctx.db.select().from(signingKeys).where(eq(signingKeys.purpose, 'lease'));
  secrets.leasePrivateD = (JSON.parse(unseal(lease!.privateJwkSealed, server.ctx.sealingKey)) as JWK)
    .d as string;
  // A Discord webhook for the customer's alerts: its token lets anyone post in their channel.
  secrets.webhookToken = `Wh${randomBytes(30).toString('base64url')}`;
  const alerts = await call(
    'PUT',
    '/me/alerts',
    {
      ...DEFAULT_ALERT_PREFERENCES,
      channels: { inApp: true, email: false, discord: true },
      discordWebhookUrl: `https://discord.com/api/webhooks/123456789012345678/${secrets.webhookToken}`,
    },
    victim.token,
  );
  expect(alerts.status, JSON.stringify(alerts.body)).toBe(200);
  const forgot = await call('POST', '/auth/forgot-password', { email: victim.user.email });
  expect(forgot.status).toBeLessThan(300);
  const mail = await vi.waitFor(() => {
    const found = server.mail.messages.find(
      (m) => m.to.toLowerCase().includes(victim.user.email.toLowerCase()) && m.text.includes('token='),
    );
    if (!found) throw new Error('no reset mail yet');
    return found;
  }, 15_000);
  // The longest token-shaped run of the mail's links: the one-time reset token.
  const links = mail.text.match(/https?:\/\/\S+/g) ?? [];
  secrets.resetLink = links.join(' ');
  secrets.resetToken = links
    .map((link) => decodeURIComponent(new URL(link).searchParams.get('token') ?? ''))
    .sort((x, y) => y.length - x.length)[0] as string;
  // The outbox empties the body once sent: wait until it is.
  await vi.waitFor(async () => {
    const sent = await server.ctx.db.select().from(mailOutbox).where(isNotNull(mailOutbox.sentAt));
    expect(sent.length).toBeGreaterThan(0);
  });
  copy = await mkdtemp(path.join(os.tmpdir(), 'stolen-'));
  dirs.push(copy);
  await server.restart(async () => {
    await cp(server.ctx.config.dataDir, copy, { recursive: true });
  });
}, 120_000);

afterAll(async () => {
  await server?.close();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('a stolen data folder, read byte by byte', () => {
  it('holds no master key file inside it', async () => {
    const names = (await filesUnder(copy)).map((file) => path.basename(file));
    expect(names.filter((name) => /master/i.test(name))).toEqual([]);
  });

  it('holds no signing private key in clear', async () => {
    expect(await filesHolding(secrets.leasePrivateD as string)).toEqual([]);
  });

  it('holds no customer bot access key in clear', async () => {
    expect(await filesHolding(secrets.botKey as string)).toEqual([]);
  });

  it('holds no TOTP secret in clear', async () => {
    expect(await filesHolding(secrets.totp as string)).toEqual([]);
  });

  it('holds no customer Discord webhook token in clear', async () => {
    expect(await filesHolding(secrets.webhookToken as string)).toEqual([]);
  });

  it('holds no usable password-reset link of a mail already sent (the outbox body was emptied)', async () => {
    expect(secrets.resetToken?.length, secrets.resetLink).toBeGreaterThan(15);
    expect(await filesHolding(secrets.resetToken as string)).toEqual([]);
  });
});

describe('a stolen data folder, used against the live server', () => {
  it('no reset token carved out of the copy’s raw files resets a password on the live server', async () => {
    const call = apiClient(server);
    const carved = new Set<string>();
    for (const file of await filesUnder(copy)) {
      const text = (await readFile(file)).toString('latin1');
      for (const match of text.matchAll(/forgot-password\?token=([A-Za-z0-9%_.~-]{16,256})/g))
        carved.add(decodeURIComponent(match[1] as string));
    }
    const accepted: string[] = [];
    for (const token of carved) {
      const answer = await call('POST', '/auth/reset-password', {
        token,
        password: 'Pirate-Horloge-Cactus-77',
      });
      if (answer.status === 200) accepted.push(token);
    }
    expect(accepted).toEqual([]);
  });
});

describe('a stolen backup tarball', () => {
  it('npm run backup of the stolen folder (no master key needed) carries no usable reset link either', {
    timeout: 120_000,
  }, async () => {
    const rootDir = fileURLToPath(new URL('../../../..', import.meta.url));
    const out = path.join(copy, '..', `${path.basename(copy)}-backup.tar.gz`);
    dirs.push(out);
    await promisify(execFile)('npm', ['run', '--silent', 'backup', '--', '--out', out], {
      cwd: rootDir,
      env: { ...process.env, DATA_DIR: copy, DATABASE_URL: '', MASTER_KEY: '', MASTER_KEY_FILE: '' },
    });
    const tar = gunzipSync(await readFile(out)).toString('latin1');
    const carved = [...tar.matchAll(/forgot-password\?token=([A-Za-z0-9%_.~-]{16,256})/g)].map((match) =>
      decodeURIComponent(match[1] as string),
    );
    expect(carved).not.toContain(secrets.resetToken);
  });
});

describe('a stolen data folder, started', () => {
  const startOn = async (env: Record<string, string>) =>
    buildApp({ config: loadConfig({ DATA_DIR: copy, LOG_LEVEL: 'silent', ...env }) });

  it('refuses to start with another master key', async () => {
    await expect(startOn({ MASTER_KEY: randomBytes(32).toString('base64') })).rejects.toThrow();
  });

  it('refuses to start with a garbage MASTER_KEY', async () => {
    await expect(startOn({ MASTER_KEY: 'garbage' })).rejects.toThrow();
  });

  it('refuses to start without any master key (a new one made beside the copy does not open it)', async () => {
    await expect(startOn({})).rejects.toThrow();
  });
});
