import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SOURCE = dirname(fileURLToPath(import.meta.url));

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /(?<!\.test|\.test-helpers)\.ts$/.test(entry.name) ? [path] : [];
  });
}

const productionFiles = sourceFiles(SOURCE);
const read = (path: string) => readFileSync(path, 'utf8');
const shown = (path: string) => relative(SOURCE, path).split(sep).join('/');

/** The folder that declares each drizzle table, by the table's variable and SQL names. */
function tableOwners(): Map<string, string> {
  const owners = new Map<string, string>();
  for (const file of productionFiles.filter((path) => path.endsWith('.table.ts'))) {
    for (const [, variable, sqlName] of read(file).matchAll(/export const (\w+) = pgTable\(\s*'(\w+)'/g)) {
      owners.set(variable!, dirname(file));
      owners.set(sqlName!, dirname(file));
    }
  }
  return owners;
}

/** Every insert, update or delete of a table outside the folder that declares it. */
function writesOutsideOwner(files: { path: string; text: string }[], owners: Map<string, string>): string[] {
  const WRITES = [
    /\.(insert|update|delete)\(\s*(\w+)\s*\)/g, // drizzle's query builder
    /\b(insert into|update|delete from) \$\{(\w+)\}/gi, // raw SQL naming the table object
    /\b(insert into|update|delete from) "?(\w+)"? /gi, // raw SQL naming the table
  ];
  return files.flatMap(({ path, text }) =>
    WRITES.flatMap((pattern) =>
      [...text.matchAll(pattern)].flatMap(([, verb, table]) => {
        const owner = owners.get(table!);
        if (!owner || dirname(path) === owner) return [];
        return [`${shown(path)}: ${verb!.toLowerCase()} ${table} (owned by ${shown(owner)})`];
      }),
    ),
  );
}

describe('server architecture', () => {
  it('core/ and db/ import nothing from the domain modules (the wiring is app.ts)', () => {
    const lowerLayers = productionFiles.filter((path) => /[/\\](core|db)[/\\]/.test(path));
    const reaching = lowerLayers.flatMap((path) =>
      [...read(path).matchAll(/from '([^']+)'/g)]
        .filter(([, specifier]) => /(^|\/)(modules|context\.ts|app\.ts)/.test(specifier!))
        .map(([, specifier]) => `${shown(path)} -> ${specifier}`),
    );
    expect(lowerLayers.length).toBeGreaterThan(10);
    expect(reaching).toEqual([]);
  });

  it('each table is written only by the module that declares it; the others call its operations', () => {
    const owners = tableOwners();
    expect(owners.get('users')).toBe(join(SOURCE, 'modules', 'users'));
    const files = productionFiles.map((path) => ({ path, text: read(path) }));
    expect(writesOutsideOwner(files, owners)).toEqual([]);
  });

  it('the ownership check names a write made from another module', () => {
    const owners = new Map([['users', join(SOURCE, 'modules', 'users')]]);
    const elsewhere = join(SOURCE, 'modules', 'auth', 'auth.service.ts');
    const found = writesOutsideOwner(
      [
        { path: elsewhere, text: 'await tx.update(users).set({ hwid: null });' },
        { path: elsewhere, text: 'await db.execute(sql`delete from users where id = 1`);' },
        {
          path: join(SOURCE, 'modules', 'users', 'users.service.ts'),
          text: 'await db.insert(users).values(row);',
        },
      ],
      owners,
    );
    expect(found).toEqual([
      'modules/auth/auth.service.ts: update users (owned by modules/users)',
      'modules/auth/auth.service.ts: delete from users (owned by modules/users)',
    ]);
  });

  it('no production source file is longer than 400 lines', () => {
    const long = productionFiles
      .map((path) => ({ path: shown(path), lines: read(path).split('\n').length }))
      .filter(({ lines }) => lines > 400);
    expect(long).toEqual([]);
  });
});
