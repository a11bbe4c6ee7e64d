import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvLines } from './admin-list.ts';

/** What sendCsv wrote with csv-stringify alone: formula cells as text, the library's quoting. */
const withCsvStringify = (rows: string[][]) =>
  stringify(rows, { cast: { string: (value) => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value) } });

const cell = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.constantFrom(
    '',
    ',',
    '"',
    '""',
    '\n',
    '\r\n',
    '\r',
    '=SUM(A1)',
    '+33 6',
    '-1',
    '@here',
    '\tx',
    'a,b',
    'é"à',
  ),
);

describe('csvLines (the export fast path for rows of strings)', () => {
  it('writes exactly what csv-stringify writes, for any strings', () => {
    fc.assert(
      fc.property(fc.array(fc.array(cell, { minLength: 1, maxLength: 8 }), { maxLength: 20 }), (rows) => {
        expect(csvLines(rows)).toBe(withCsvStringify(rows));
      }),
      { numRuns: 500 },
    );
  });

  it('quotes what must be quoted and exports formulas as text', () => {
    expect(csvLines([['a,b', 'say "hi"', 'two\nlines', '=1+1', 'plain', '']])).toBe(
      '"a,b","say ""hi""","two\nlines",\'=1+1,plain,\n',
    );
  });
});
