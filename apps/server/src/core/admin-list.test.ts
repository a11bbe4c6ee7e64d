import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvLines, spreadsheetDates } from './admin-list.ts';

/** What sendCsv wrote with csv-stringify alone: formula cells as text, the library's quoting. */
const withCsvStringify = (rows: string[][]) =>
  stringify(rows, {
    delimiter: ';',
    cast: { string: (value) => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value) },
  });

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
    'a;b',
    ';',
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
    expect(csvLines([['a;b', 'a,b', 'say "hi"', 'two\nlines', '=1+1', 'plain', '']])).toBe(
      '"a;b";a,b;"say ""hi""";"two\nlines";\'=1+1;plain;\n',
    );
  });
});

describe('spreadsheetDates', () => {
  it("writes instants as local 'YYYY-MM-DD HH:mm:ss' in the viewer's zone, other cells as they are", () => {
    const paris = spreadsheetDates('Europe/Paris');
    expect(paris('2026-02-03T04:05:06.789Z')).toBe('2026-02-03 05:05:06');
    expect(paris('2026-07-03T22:30:00.000Z')).toBe('2026-07-04 00:30:00');
    expect(spreadsheetDates('America/New_York')('2026-02-03T04:05:06Z')).toBe('2026-02-02 23:05:06');
    expect(paris('2026-02-03')).toBe('2026-02-03');
    expect(paris('texte 2026-02-03T04:05:06Z')).toBe('texte 2026-02-03T04:05:06Z');
    // No zone, or one that does not exist: Paris time.
    expect(spreadsheetDates(undefined)('2026-02-03T04:05:06Z')).toBe('2026-02-03 05:05:06');
    expect(spreadsheetDates('Mars/Olympus')('2026-02-03T04:05:06Z')).toBe('2026-02-03 05:05:06');
  });
});
