import { randomBytes } from 'node:crypto';
import { BOT_LOG_REDACTED as M } from '@bot/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactBatch } from './redaction.ts';

/** Shaped as the server makes them (`newSecret`: 32 random bytes in base64url). */
const secretOf = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const accessKeyOf = (bytes: Uint8Array) => `bk_${secretOf(bytes)}`;
const anyKey = fc.uint8Array({ minLength: 32, maxLength: 32 }).map(accessKeyOf);
const key = accessKeyOf(randomBytes(32));

const encodings: Record<string, (secret: string) => string> = {
  plain: (secret) => secret,
  'upper case': (secret) => secret.toUpperCase(),
  'lower case': (secret) => secret.toLowerCase(),
  base64: (secret) => Buffer.from(secret).toString('base64'),
  base64url: (secret) => Buffer.from(secret).toString('base64url'),
  'upper-case base64': (secret) => Buffer.from(secret).toString('base64').toUpperCase(),
  hex: (secret) => Buffer.from(secret).toString('hex'),
  'upper-case hex': (secret) => Buffer.from(secret).toString('hex').toUpperCase(),
  'URL-encoded base64': (secret) => encodeURIComponent(Buffer.from(secret).toString('base64')),
  'every byte URL-encoded': (secret) =>
    [...Buffer.from(secret)].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join(''),
  'URL-encoded twice': (secret) => encodeURIComponent(secret.replaceAll('_', '%5F')),
};

const one = (line: string, secrets: string[] = [key]) => redactBatch([line], secrets)[0];

describe('the owner’s access key', () => {
  for (const [name, encode] of Object.entries(encodings)) {
    it(`is masked ${name}, anywhere in a line`, () => {
      fc.assert(
        fc.property(anyKey, fc.string(), fc.string(), (secret, before, after) => {
          const shown = redactBatch([`${before} ${encode(secret)} ${after}`], [secret])[0] ?? '';
          expect(shown).toContain(M);
          expect(shown.toLowerCase()).not.toContain(encode(secret).toLowerCase());
        }),
        { numRuns: 200 },
      );
    });
  }

  it('is masked by its part after the prefix too, plain, in hex or in base64', () => {
    const body = key.slice('bk_'.length);
    for (const written of [body, Buffer.from(body).toString('hex'), Buffer.from(body).toString('base64')])
      expect(one(`corps ${written} lu`)).toBe(`corps ${M} lu`);
  });

  it('is masked in base64 inside a longer encoded text, whatever the bytes before it', () => {
    fc.assert(
      fc.property(
        anyKey,
        fc.uint8Array({ maxLength: 10 }),
        fc.uint8Array({ maxLength: 10 }),
        (secret, pre, post) => {
          const before = Buffer.concat([pre, Buffer.from('Authorization: ')]);
          const blob = Buffer.concat([before, Buffer.from(secret), post]);
          // What is left: the characters made of the bytes before the key only, and after it only.
          const kept = Math.floor((before.length * 4) / 3);
          const keptFrom = Math.ceil(((before.length + secret.length) * 4) / 3);
          for (const encoded of [blob.toString('base64'), blob.toString('base64url')]) {
            const shown = one(`en-tête ${encoded}`, [secret]) ?? '';
            const after = encoded.slice(keptFrom).replace(/^=+$/, '');
            expect(shown).toBe(`en-tête ${encoded.slice(0, kept)}${M}${after}`);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('is masked in both lines when it runs from one line of the batch into the next', () => {
    fc.assert(
      fc.property(
        anyKey,
        fc.constantFrom(...Object.values(encodings)),
        fc.nat(),
        fc.stringMatching(/^[a-zé ]{0,12}$/),
        (secret, encode, at, before) => {
          const written = `${before}clé ${encode(secret)}`;
          const cut = before.length + 4 + (at % (encode(secret).length + 1));
          const shown = redactBatch(['avant', written.slice(0, cut), written.slice(cut), 'après'], [secret]);
          expect(shown[0]).toBe('avant');
          expect(shown[3]).toBe('après');
          // Not one character of the key is left on either side.
          expect(`${shown[1]}${shown[2]}`.replaceAll(M, '')).toBe(`${before}clé `);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('secret shapes, whoever they belong to', () => {
  const other = accessKeyOf(randomBytes(32));
  const cases: [string, string, string][] = [
    ['another user’s access key', `clé ${other} lue`, `clé ${M} lue`],
    ['an access key in upper case', `clé ${other.toUpperCase()} lue`, `clé ${M} lue`],
    ['a bot session', `session bs_${secretOf(randomBytes(32))}.`, `session ${M}.`],
    ['a web session token', `jeton ${secretOf(randomBytes(32))} ok`, `jeton ${M} ok`],
    ['an API token to come', `bpat_${secretOf(randomBytes(32))}`, M],
    ['a webhook secret to come', `whsec_${randomBytes(24).toString('base64')}`, M],
    ['a JWS', 'bail eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl fin', `bail ${M} fin`],
    [
      'a JWS with %2E for dots',
      'bail=eyJhbGciOiJFZERTQSJ9%2EeyJzdWIiOiJ4In0%2Ec2lnbmF0dXJl&x=1',
      `bail=${M}&x=1`,
    ],
    ['a bearer token', 'Authorization: Bearer abc.def-ghi_jkl', `Authorization: Bearer ${M}`],
    ['PASSWORD=', 'PASSWORD=hunter2 refusé', `PASSWORD=${M} refusé`],
    ['password: "…"', '{"password": "hunter 2", "x": 1}', `{"password": ${M}, "x": 1}`],
    ['mot de passe', 'Mot de passe\u00a0: hunter2', `Mot de passe\u00a0: ${M}`],
    ['a token in a query', 'GET /x?access_token=abc123&y=2', `GET /x?access_token=${M}&y=2`],
    ['pwd, mdp, passphrase', 'pwd=a1 mdp: b2 Passphrase="c 3"', `pwd=${M} mdp: ${M} Passphrase=${M}`],
    [
      'secret, api_key, access-key',
      "secret: a1, API_KEY='b2' access-key=c3",
      `secret: ${M}, API_KEY=${M} access-key=${M}`,
    ],
  ];
  for (const [name, line, expected] of cases)
    it(`masks ${name}`, () => {
      expect(redactBatch([line])).toEqual([expected]);
    });

  it('masks a shape split over two lines of the batch', () => {
    const token = `bs_${secretOf(randomBytes(32))}`;
    expect(redactBatch([`session ${token.slice(0, 10)}`, `${token.slice(10)} ouverte`])).toEqual([
      `session ${M}`,
      `${M} ouverte`,
    ]);
  });

  it('masks a JWS split over two lines of the batch', () => {
    const jws = 'eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl';
    expect(redactBatch([`bail ${jws.slice(0, 12)}`, `${jws.slice(12)} fin`])).toEqual([
      `bail ${M}`,
      `${M} fin`,
    ]);
  });

  it('leaves ordinary lines as they are, and its own marker', () => {
    const word = fc.constantFrom(
      'Compte',
      'A',
      ':',
      'erreur',
      'de',
      'chemin',
      'carte',
      '(12,-4)',
      'récolte',
      'bs_session_expired_handler',
      'bk',
      'eyJ',
      'passe',
      '%20',
      '2026-11-28T05:16:52Z',
      '0190a3b2-7c4d-7e8f-9a0b-1c2d3e4f5a6b',
      M,
    );
    const line = fc.array(word, { maxLength: 12 }).map((words) => words.join(' '));
    fc.assert(
      fc.property(fc.array(line, { maxLength: 6 }), (lines) => {
        expect(redactBatch(lines, [key])).toEqual(lines);
      }),
      { numRuns: 500 },
    );
  });

  it('is idempotent and keeps the number of lines', () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { maxLength: 8 }), (lines) => {
        const once = redactBatch(lines, [key]);
        expect(once).toHaveLength(lines.length);
        expect(redactBatch(once, [key])).toEqual(once);
      }),
      { numRuns: 500 },
    );
  });
});
