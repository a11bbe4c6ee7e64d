import { BOT_STATUSES, botReportSchema } from '@bot/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compileSafeParse } from './fast-validation.ts';

const parseReport = compileSafeParse(botReportSchema);

const account = (name: string) => ({
  name,
  character: 'Perso',
  level: 120,
  status: 'gathering',
  position: { mapId: 12_345, x: 5, y: -3 },
  routeId: null,
  stats: { gathered: 10, treasures: 2, kamas: 3000, xp: 12_345 },
  message: null,
});

/** Strings around the limits: empty, blank, untrimmed, long, beyond U+FFFF, lone surrogates. */
const text = fc.oneof(
  { weight: 80, arbitrary: fc.string({ minLength: 1, maxLength: 30 }) },
  fc.string({ maxLength: 70 }),
  fc.string({ unit: 'grapheme', maxLength: 70 }),
  fc.string({ unit: 'binary', maxLength: 70 }),
  fc.constantFrom('', ' ', ' nom', 'nom ', '\u00a0nom', 'nom\n', '\ufeff', 'a'.repeat(64), 'a'.repeat(65)),
  fc.constantFrom('😀'.repeat(64), '😀'.repeat(65), '\ud800', `${'a'.repeat(63)}\ud800`),
);
const integer = fc.oneof(
  { weight: 60, arbitrary: fc.integer({ min: 1, max: 1000 }) },
  fc.integer({ min: -1200, max: 1200 }),
  fc.constantFrom(0, -1, 1000, 1001, 2_147_483_647, 2_147_483_648, -2_147_483_649, 1.5, Number.NaN),
  fc.double(),
);
/** Sometimes a wrong type or a missing key (undefined: dropped by JSON), sometimes an unknown key. */
const maybe = <T>(value: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 100, arbitrary: value }, fc.constantFrom(null, undefined, '1', true, {}, []));
const record = (shape: Record<string, fc.Arbitrary<unknown>>) =>
  fc
    .tuple(
      fc.record(shape),
      fc.oneof(
        { weight: 40, arbitrary: fc.constant(null) },
        fc.constantFrom('extra', '__proto__', 'toString'),
      ),
    )
    .map(([value, extra]) => (extra ? { ...value, [extra]: 1 } : value));

const accountInput = record({
  name: maybe(text),
  character: maybe(text),
  level: maybe(integer),
  status: maybe(fc.oneof({ weight: 40, arbitrary: fc.constantFrom(...BOT_STATUSES) }, fc.string())),
  position: maybe(record({ mapId: maybe(integer), x: maybe(integer), y: maybe(integer) })),
  routeId: maybe(text),
  stats: maybe(record({ gathered: integer, treasures: integer, kamas: integer, xp: integer })),
  message: maybe(text),
});
/** As a report arrives: parsed from JSON by Socket.IO. */
const reportInput = record({
  version: maybe(text),
  accounts: maybe(fc.array(accountInput, { maxLength: 9 })),
}).map((report) => JSON.parse(JSON.stringify(report)) as unknown);

describe('compileSafeParse', () => {
  it('answers exactly as zod does, for any input', () => {
    fc.assert(
      fc.property(reportInput, (input) => {
        // The fast path hands back the input itself: compare with zod on a copy it cannot touch.
        const expected = botReportSchema.safeParse(structuredClone(input));
        const actual = parseReport(input);
        expect(actual.success).toBe(expected.success);
        if (expected.success) expect(actual.data).toStrictEqual(expected.data);
      }),
      { numRuns: 3000 },
    );
  });

  it('returns a report already in its parsed form as is, without zod', () => {
    const report = { version: '1.4.0', accounts: [account('Compte')] };
    expect(parseReport(report)).toEqual({ success: true, data: report });
    expect(parseReport(report).data).toBe(report);
  });

  it('leaves what zod rewrites or rejects to zod', () => {
    const untrimmed = { accounts: [account('  Compte ')] };
    expect(parseReport(untrimmed).data?.accounts[0]?.name).toBe('Compte');

    const withUnknownPositionKey = {
      accounts: [{ ...account('Compte'), position: { mapId: 1, x: 0, y: 0, z: 9 } }],
    };
    expect(parseReport(withUnknownPositionKey).data?.accounts[0]?.position).toEqual({ mapId: 1, x: 0, y: 0 });

    const tooManyAccounts = { accounts: Array.from({ length: 9 }, (_, i) => account(`C${i}`)) };
    const refused = parseReport(tooManyAccounts);
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.path).toEqual(['accounts']);
  });

  it('counts string lengths as zod does (code points), ceilings and floors alike', () => {
    // Characters beyond U+FFFF are two UTF-16 units: a count of units would get these limits wrong.
    const schema = z.strictObject({ code: z.string().min(3).max(5), pin: z.string().length(4) });
    const parseCodes = compileSafeParse(schema);
    const astral = fc.constantFrom('😀', '𝒜', '\ud800', 'a', 'é');
    const codeText = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.array(astral, { maxLength: 7 }).map((parts) => parts.join('')),
    );
    fc.assert(
      fc.property(codeText, codeText, (code, pin) => {
        const input = { code, pin };
        const expected = schema.safeParse(structuredClone(input));
        expect(parseCodes(input).success).toBe(expected.success);
      }),
      { numRuns: 3000 },
    );
    expect(parseCodes({ code: '😀😀', pin: '😀😀😀😀' }).success).toBe(false);
    expect(parseCodes({ code: '😀😀😀', pin: '😀😀😀😀' }).success).toBe(true);
  });
});
