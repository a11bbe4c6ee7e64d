import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  BOT_STATUSES,
  botAccountSchema,
  botLogLineInput,
  botReportSchema,
  botSessionInput,
  leaseAnswer,
} from '@bot/contracts';
import { exportJWK, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
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

  it('lists exactly the fields POST /api/bot/sessions takes, with their limits', () => {
    const rows = fieldTable(read('docs/protocol.md'), '`POST /api/bot/sessions` takes');
    expect(rows.map((row) => row.field).sort()).toEqual(Object.keys(botSessionInput.shape).sort());
    expectLimitsOf(rows, jsonSchemaOf(botSessionInput));
  });

  it('lists exactly the fields of a report and of its accounts, with their limits', () => {
    const rows = fieldTable(read('docs/protocol.md'), '## Reports (`bot_update`)');
    const fields = [
      ...Object.keys(botReportSchema.shape),
      ...Object.keys(botAccountSchema.shape).map((key) => `accounts[].${key}`),
    ];
    expect(rows.map((row) => row.field).sort()).toEqual(fields.sort());
    expectLimitsOf(rows, jsonSchemaOf(botReportSchema));
  });

  it('quotes the answer of a lease renewal and the fields of a log line as the schemas have them', () => {
    const page = read('docs/protocol.md');
    const renewals = [...page.matchAll(/`POST \/api\/bot\/lease \{token, hwid\}` answers\s+`\{([^}]*)\}`/g)];
    expect(renewals.length).toBeGreaterThan(0);
    for (const [, keys = ''] of renewals) expect(keysOf(keys)).toEqual(Object.keys(leaseAnswer.shape).sort());
    const lines = [...page.matchAll(/lines: \[\{([^}]*)\}\]/g), ...page.matchAll(/a line is `\{([^}]*)\}`/g)];
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const [, keys = ''] of lines)
      expect(keysOf(keys)).toEqual(Object.keys(botLogLineInput.shape).sort());
  });

  it('tells an agent to renew after LEASE_KEY_REVOKED, which only comes with a kid, not to stop', () => {
    const row = read('docs/protocol.md')
      .split('\n')
      .find((line) => line.startsWith('| `LEASE_KEY_REVOKED` |'));
    expect(row?.split('|').at(-2)?.trim()).toBe('renew the lease');
  });
});

interface FieldRow {
  field: string;
  text: string;
}

/** The rows of the first `| Field | … |` table after `heading` in a page. */
function fieldTable(page: string, heading: string): FieldRow[] {
  const from = page.indexOf(heading);
  expect(from, heading).toBeGreaterThanOrEqual(0);
  const lines = page.slice(from).split('\n');
  const start = lines.findIndex((line) => line.startsWith('| Field |'));
  const rows: FieldRow[] = [];
  for (const line of lines.slice(start + 2)) {
    const cells = /^\| `([^`]+)` \| (.*) \|$/.exec(line);
    if (!cells) break;
    rows.push({ field: cells[1] as string, text: cells[2] as string });
  }
  return rows;
}

/** `id?, level, time, message` as its sorted keys. */
const keysOf = (list: string) =>
  list
    .split(',')
    .map((key) => key.trim().replace(/\?$/, ''))
    .sort();

type JsonSchema = {
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  minLength?: number;
  maxLength?: number;
};

const jsonSchemaOf = (schema: z.ZodType) =>
  z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;

/** The schema of `accounts[].name` or `lastCrash.message` (the string member of a nullable). */
function propertyOf(root: JsonSchema, field: string): JsonSchema | undefined {
  let node: JsonSchema | undefined = root;
  for (const part of field.split('.')) {
    const key = part.replace(/\[\]$/, '');
    node = node?.properties?.[key];
    if (part.endsWith('[]')) node = node?.items;
  }
  return node?.anyOf?.find((member) => member.maxLength !== undefined) ?? node;
}

/**
 * Each "at most N characters" or "M to N characters" of a row (or of its `nested` field) is the
 * schema's, and a row whose field has a maximum length states one.
 */
function expectLimitsOf(rows: FieldRow[], root: JsonSchema): void {
  for (const { field, text } of rows) {
    if (propertyOf(root, field)?.maxLength !== undefined) expect(text, field).toMatch(/ characters/);
    for (const limit of text.matchAll(/(?:`(\w+)` )?(?:at most|(\d+) to) ([\d,]+) characters/g)) {
      const [, nested, min, max] = limit;
      const property = propertyOf(root, nested ? `${field}.${nested}` : field);
      expect(property?.maxLength, `${field} ${limit[0]}`).toBe(Number(max?.replaceAll(',', '')));
      if (min) expect(property?.minLength, `${field} ${limit[0]}`).toBe(Number(min));
    }
  }
}

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
