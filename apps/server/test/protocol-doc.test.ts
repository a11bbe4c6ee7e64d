import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BOT_STATUSES } from '@bot/contracts';
import { exportJWK, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, startTestServer, type TestServer } from './harness.ts';
import { createBotOwner, newHwid } from './helpers/realtime.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
/** Debian's interpreter, whose python3-jwt and python3-cryptography the snippet is written for. */
const PYTHON = '/usr/bin/python3';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd: ROOT, env: { ...process.env, ...env } }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** A block of docs/licensing.md's "Verifying a lease with your own tooling", by its language. */
function licensingSnippet(language: 'python' | 'js'): string {
  const page = read('docs/licensing.md');
  const section = page.slice(page.indexOf('### Verifying a lease with your own tooling'));
  const block = new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``).exec(section);
  if (!block?.[1]) throw new Error(`docs/licensing.md : aucun bloc ${language} dans « Verifying a lease »`);
  return block[1];
}

/** Each language the page shows, how to run its block, and how it says a signature is wrong. */
const SNIPPETS = [
  { language: 'python', command: PYTHON, file: 'verify_lease.py', badSignature: 'InvalidSignatureError' },
  {
    language: 'js',
    command: process.execPath,
    file: 'verify_lease.mjs',
    badSignature: 'signature verification failed',
  },
] as const;

describe('docs/protocol.md is written by the code', () => {
  it('holds the error table generated from the contracts (npm run docs:errors)', async () => {
    const check = await run(process.execPath, ['--import', 'tsx', 'scripts/docs-errors.ts', '--check']);
    expect(check.stderr).toBe('');
    expect(check.code).toBe(0);
  });

  it('names the 8 statuses of a report and says its stats are cumulative counters', () => {
    const page = read('docs/protocol.md');
    for (const status of BOT_STATUSES) expect(page).toContain(`\`${status}\``);
    expect(page).toContain('**cumulative counters**');
    expect(read('apps/server/src/modules/realtime/README.md')).not.toMatch(/deltas .* are summed/i);
  });
});

describe.each(SNIPPETS)(
  "docs/licensing.md's $language verification",
  ({ language, command, file, badSignature }) => {
    let server: TestServer;
    let folder: string;
    let snippet: string;
    let bot: Awaited<ReturnType<typeof createBotOwner>>;
    let lease: string;

    const verify = (env: Record<string, string>) =>
      run(command, [snippet], {
        PLATFORM_URL: server.url,
        TRUST_ROOT: JSON.stringify(server.trustRoot),
        LEASE: lease,
        HWID: bot.hwid,
        ...env,
      });

    beforeAll(async () => {
      server = await startTestServer();
      folder = await mkdtemp(path.join(os.tmpdir(), 'lease-python-'));
      snippet = path.join(folder, file);
      await writeFile(snippet, licensingSnippet(language));
      // The Node block imports jose, found beside it as in a bot maker's project.
      await symlink(path.join(ROOT, 'node_modules'), path.join(folder, 'node_modules'));
      bot = await createBotOwner(server);
      const renewal = await apiClient(server)<{ lease: string }>('POST', '/bot/lease', {
        token: bot.botToken,
        hwid: bot.hwid,
      });
      lease = renewal.body.lease;
    });
    afterAll(async () => {
      await rm(folder, { recursive: true, force: true });
      await server.close();
    });

    it('verifies a real lease against the root-signed key set', async () => {
      const outcome = await verify({});
      if (/No module named/.test(outcome.stderr))
        throw new Error(`${outcome.stderr}\napt-get install python3-jwt python3-cryptography`);
      expect(outcome.stderr).toBe('');
      expect(outcome.code).toBe(0);
      expect(JSON.parse(outcome.stdout)).toMatchObject({
        sub: bot.user.id,
        accounts: bot.accounts,
        onGrace: false,
      });
    });

    it("refuses it on another PC, and under a root that did not sign the platform's key set", async () => {
      const otherPc = await verify({ HWID: newHwid() });
      expect(otherPc.code).toBe(1);
      expect(otherPc.stderr.trim()).toBe('LEASE_OTHER_PC');

      const { publicKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
      const strangerRoot = await verify({ TRUST_ROOT: JSON.stringify(await exportJWK(publicKey)) });
      expect(strangerRoot.code).toBe(1);
      expect(strangerRoot.stderr).toContain(badSignature);
    });
  },
);
