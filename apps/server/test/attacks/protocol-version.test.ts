import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, startTestServer, type TestServer } from '../harness.ts';
import { newHwid } from '../helpers/realtime.ts';

/**
 * Attack 4: the protocol version an agent says in `POST /api/bot/sessions` (decision 923). Odd values
 * are a French 400 with its code and the field named, never a 500, never a session for a major the
 * server does not speak (that one is the 426 of an outdated agent).
 */
let server: TestServer;
let call: ReturnType<typeof apiClient>;
let accessKey: string;

beforeAll(async () => {
  server = await startTestServer({ rateLimits: { botSession: { max: 10_000, windowMs: 60_000 } } });
  call = apiClient(server);
  const owner = await server.createUser({ permissions: ['can_useGathering'] });
  const key = await call<{ data: { accessKey: string } }>('GET', '/me/bot-key', undefined, owner.token);
  accessKey = key.body.data.accessKey;
});
afterAll(() => server?.close());

/** Each attempt on a fresh PC of a fresh customer would bind; one customer, one PC, is enough here. */
const hwid = newHwid();
const open = (protocolVersion: unknown) =>
  call<{ code?: string; error?: string; details?: { path: string }[]; token?: string }>(
    'POST',
    '/bot/sessions',
    {
      accessKey,
      hwid,
      version: '1.2.0',
      protocolVersion,
    },
  );

/** French: an accented letter or a French word of the error table, and no English of a library. */
const FRENCH = /[éèàùâêîôûç]|version|protocole|attendu/i;

describe('odd protocol versions', () => {
  const malformed: [string, unknown][] = [
    ['"1"', '1'],
    ['"01.0"', '01.0'],
    ['"1.01"', '1.01'],
    ['"999999999999.0"', '999999999999.0'],
    ['"1.999999999999"', '1.999999999999'],
    ['"-1.0"', '-1.0'],
    ['"1.0 "', '1.0 '],
    ['"1.0\\n"', '1.0\n'],
    ['"1.0\\u0000"', '1.0\u0000'],
    ['"١.٠" (Arabic-Indic digits)', '١.٠'],
    ['"1e3.0"', '1e3.0'],
    ['"0x1.0"', '0x1.0'],
    ['"1.1.0"', '1.1.0'],
    ['""', ''],
    ['a number 1.1', 1.1],
    ['null', null],
    ['true', true],
    ['an object', { major: 1, minor: 1 }],
    ['an array', ['1', '1']],
    ['a string of 100,000 characters', `1.${'1'.repeat(100_000)}`],
    ['"__proto__"', '__proto__'],
  ];

  for (const [name, value] of malformed) {
    it(`refuses ${name} with a French 400 naming the field`, async () => {
      const answer = await open(value);
      const text = JSON.stringify(answer.body);
      expect(answer.status, text).toBeGreaterThanOrEqual(400);
      expect(answer.status, text).toBeLessThan(500);
      expect(answer.body.token, text).toBeUndefined();
      if (answer.status === 413) return; // a body past the limit: refused before it is read
      expect(answer.status, text).toBe(400);
      expect(['VALIDATION_ERROR', 'NUL_CHARACTER'], text).toContain(answer.body.code);
      expect(String(answer.body.error), text).toMatch(FRENCH);
      if (answer.body.code === 'VALIDATION_ERROR')
        expect(
          answer.body.details?.map((detail) => detail.path),
          text,
        ).toContain('protocolVersion');
      expect(text.length, 'the answer does not echo a long value back').toBeLessThan(2_000);
    });
  }

  it('never opens a session for another major: "0.9", "2.0", "9999.0" are the 426 of an outdated agent', async () => {
    for (const value of ['0.0', '0.9', '2.0', '9999.0', '9999.9999']) {
      const answer = await open(value);
      expect(answer.status, value).toBe(426);
      expect(answer.body.code, value).toBe('BOT_VERSION_OUTDATED');
      expect(answer.body.token, value).toBeUndefined();
      expect(String(answer.body.error)).toMatch(FRENCH);
    }
  });

  it('opens one for its own major, whatever minor', async () => {
    for (const value of ['1.0', '1.1', '1.9999']) {
      const answer = await open(value);
      expect(answer.status, value).toBe(201);
      expect(typeof answer.body.token).toBe('string');
    }
  });
});
