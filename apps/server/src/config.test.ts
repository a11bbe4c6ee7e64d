import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('applies the defaults of docs/operations.md (Configuration)', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      publicUrl: 'http://localhost:3000',
      databaseUrl: undefined,
      smtpUrl: undefined,
      mailFrom: 'no-reply@localhost',
      admin: { username: 'admin', password: undefined, email: 'admin@localhost' },
      logLevel: 'info',
      stripe: undefined,
    });
    expect(config.dataDir.endsWith('/data')).toBe(true);
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('PUBLIC_URL defaults to http://localhost:<PORT>, so links work when only PORT is set', () => {
    expect(loadConfig({ PORT: '3301' }).publicUrl).toBe('http://localhost:3301');
    expect(loadConfig({ PORT: '3301', PUBLIC_URL: '' }).publicUrl).toBe('http://localhost:3301');
    expect(loadConfig({}).publicUrl).toBe('http://localhost:3000');
    expect(loadConfig({ PORT: '3301', PUBLIC_URL: 'https://bots.example.com/' }).publicUrl).toBe(
      'https://bots.example.com',
    );
  });

  it('lists every bad variable at once', () => {
    expect(() => loadConfig({ PORT: 'abc', ADMIN_EMAIL: 'pas-un-email', LOG_LEVEL: 'loud' })).toThrow(
      /PORT[\s\S]*ADMIN_EMAIL[\s\S]*LOG_LEVEL|PORT[\s\S]*LOG_LEVEL[\s\S]*ADMIN_EMAIL/,
    );
  });

  it('TRUST_PROXY takes a hop count or proxy addresses, never "trust everyone"', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.2, 10.1.0.0/16, ::1' }).trustProxy).toEqual([
      '10.0.0.2',
      '10.1.0.0/16',
      '::1',
    ]);
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY: trop permissif/);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/40' })).toThrow(/CIDR invalide : 10.0.0.0\/40/);
  });

  it('exempts no address from the handshake limit unless SOCKET_HANDSHAKE_ALLOWLIST lists it', () => {
    expect(loadConfig({}).socketHandshakeAllowlist).toEqual([]);
    expect(loadConfig({ SOCKET_HANDSHAKE_ALLOWLIST: '127.0.0.1, ::1' }).socketHandshakeAllowlist).toEqual([
      '127.0.0.1',
      '::1',
    ]);
    expect(() => loadConfig({ SOCKET_HANDSHAKE_ALLOWLIST: 'localhost' })).toThrow(
      /SOCKET_HANDSHAKE_ALLOWLIST: adresse ou CIDR invalide : localhost/,
    );
  });

  it('refuses half a Stripe configuration instead of falling back to the sandbox', () => {
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'sk_test_x' })).toThrow(/STRIPE_WEBHOOK_SECRET/);
    expect(() => loadConfig({ STRIPE_WEBHOOK_SECRET: 'whsec_x' })).toThrow(/STRIPE_WEBHOOK_SECRET/);
    expect(loadConfig({ STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' }).stripe).toEqual({
      secretKey: 'sk_test_x',
      webhookSecret: 'whsec_x',
    });
  });

  it('runs the payment sandbox unnamed only on a loopback installation (a public one would give every offer away)', () => {
    expect(loadConfig({}).installation).toEqual({ isLoopback: true, problems: [] });
    expect(loadConfig({ PUBLIC_URL: 'http://127.0.0.1:3000', HOST: '::1' }).installation.isLoopback).toBe(
      true,
    );
    const noStripe =
      /Aucun moyen de paiement : définissez STRIPE_SECRET_KEY et STRIPE_WEBHOOK_SECRET, ou PAYMENT_PROVIDER=sandbox/;
    // A public address, a public listening address, or production: each makes the installation public.
    for (const env of [
      { PUBLIC_URL: 'https://bots.example.fr' },
      { HOST: '0.0.0.0' },
      { NODE_ENV: 'production' },
      { PUBLIC_URL: 'http://127.0.0.2.example.fr' },
    ]) {
      const { installation } = loadConfig(env);
      expect(installation.isLoopback, JSON.stringify(env)).toBe(false);
      expect(installation.problems.join('\n')).toMatch(noStripe);
    }
    const stripe = { STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' };
    expect(loadConfig({ HOST: '0.0.0.0', ...stripe }).installation.problems).toEqual([]);
    expect(loadConfig({ HOST: '0.0.0.0', PAYMENT_PROVIDER: 'sandbox' }).installation.problems).toEqual([]);
    expect(loadConfig({ PAYMENT_PROVIDER: 'stripe' }).installation.problems).toEqual([
      'PAYMENT_PROVIDER=stripe : définissez STRIPE_SECRET_KEY et STRIPE_WEBHOOK_SECRET.',
    ]);
    expect(() => loadConfig({ PAYMENT_PROVIDER: 'sandbox', ...stripe })).toThrow(/PAYMENT_PROVIDER/);
    expect(() => loadConfig({ PAYMENT_PROVIDER: 'paypal' })).toThrow(/PAYMENT_PROVIDER/);
  });

  it('takes the master key from MASTER_KEY_FILE or MASTER_KEY, else a file beside (not inside) DATA_DIR; never invents one for PostgreSQL', () => {
    const key = Buffer.alloc(32, 1).toString('base64');
    expect(loadConfig({ DATA_DIR: '/srv/bot/data' }).masterKey).toEqual({
      kind: 'file',
      path: '/srv/bot/data.master-key',
      createIfMissing: true,
    });
    expect(loadConfig({ MASTER_KEY_FILE: '/run/secrets/master_key' }).masterKey).toEqual({
      kind: 'file',
      path: '/run/secrets/master_key',
      createIfMissing: false,
    });
    expect(loadConfig({ MASTER_KEY: key }).masterKey).toEqual({ kind: 'value', value: key });

    const shared = loadConfig({ DATABASE_URL: 'postgres://u:p@db:5432/bot' });
    expect(shared.masterKey).toEqual({ kind: 'missing' });
    expect(shared.installation.problems.join('\n')).toContain('DATABASE_URL sans clé maîtresse');
    expect(
      loadConfig({ DATABASE_URL: 'postgres://u:p@db:5432/bot', MASTER_KEY: key }).installation.problems,
    ).toEqual([]);

    expect(() => loadConfig({ MASTER_KEY: 'trop-courte' })).toThrow(
      /MASTER_KEY: 32 octets aléatoires en base64/,
    );
    expect(() => loadConfig({ MASTER_KEY: key, MASTER_KEY_FILE: '/run/secrets/master_key' })).toThrow(
      'gardez-en un seul',
    );
    // The message names the variable, never the value it refused.
    expect(() => loadConfig({ MASTER_KEY: 'c2VjcmV0LXRyb3AtY291cnQ=' })).not.toThrow(/c2VjcmV0/);
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', PORT: '' })).toMatchObject({ databaseUrl: undefined, port: 3000 });
  });
});
