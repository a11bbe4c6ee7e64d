import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'env-files-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function secretFile(name: string, content: string): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, content, { mode: 0o600 });
  return file;
}

describe('secrets from files (NAME_FILE, docs/operations.md "Secrets")', () => {
  it('reads every secret from its _FILE variant once, without the trailing newline', async () => {
    const config = loadConfig({
      ADMIN_PASSWORD_FILE: await secretFile('admin', 'Mot-De-Passe-Du-Fichier-2026\n'),
      DATABASE_URL_FILE: await secretFile('db', 'postgres://bot:s3cret@db:5432/bot\n'),
      SMTP_URL_FILE: await secretFile('smtp', 'smtp://mail:pw@smtp.example.fr:587'),
      METRICS_TOKEN_FILE: await secretFile('metrics', 'jeton-des-mesures-du-fichier\r\n'),
      STRIPE_SECRET_KEY_FILE: await secretFile('stripe', 'sk_test_fichier\n'),
      STRIPE_WEBHOOK_SECRET_FILE: await secretFile('webhook', 'whsec_fichier\n'),
      MASTER_KEY_FILE: '/run/secrets/master_key',
    });
    expect(config.admin.password).toBe('Mot-De-Passe-Du-Fichier-2026');
    expect(config.databaseUrl).toBe('postgres://bot:s3cret@db:5432/bot');
    expect(config.smtpUrl).toBe('smtp://mail:pw@smtp.example.fr:587');
    expect(config.metricsToken).toBe('jeton-des-mesures-du-fichier');
    expect(config.stripe).toMatchObject({ secretKey: 'sk_test_fichier', webhookSecret: 'whsec_fichier' });
  });

  it('an empty file means unset, like an empty variable', async () => {
    expect(loadConfig({ SMTP_URL_FILE: await secretFile('empty', '\n') }).smtpUrl).toBeUndefined();
  });

  it('a missing or unreadable file is a French configuration error naming the variable, never the value', async () => {
    const missing = path.join(dir, 'absent');
    expect(() => loadConfig({ ADMIN_PASSWORD_FILE: missing })).toThrow(
      `ADMIN_PASSWORD_FILE : le fichier ${missing} est introuvable`,
    );
    const folder = path.join(dir);
    expect(() => loadConfig({ METRICS_TOKEN_FILE: folder })).toThrow(/METRICS_TOKEN_FILE : .*illisible/);
    if (process.getuid?.() !== 0) {
      const locked = await secretFile('locked', 'x');
      await chmod(locked, 0o000);
      expect(() => loadConfig({ SMTP_URL_FILE: locked })).toThrow(/SMTP_URL_FILE : .*illisible/);
    }
  });

  it('refuses a secret given twice, and checks a value read from a file like the variable', async () => {
    const file = await secretFile('twice', 'Mot-De-Passe-Du-Fichier-2026\n');
    expect(() =>
      loadConfig({ ADMIN_PASSWORD: 'Autre-Mot-De-Passe-2026', ADMIN_PASSWORD_FILE: file }),
    ).toThrow(/ADMIN_PASSWORD et ADMIN_PASSWORD_FILE sont définis/);
    const short = await secretFile('short', 'court\n');
    expect(() => loadConfig({ METRICS_TOKEN_FILE: short })).toThrow(/METRICS_TOKEN/);
  });
});
