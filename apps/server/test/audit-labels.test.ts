import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AUDIT_ACTION_LABELS } from '@bot/contracts';
import { expect, it } from 'vitest';

const sourceDir = fileURLToPath(new URL('../src/', import.meta.url));

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return sourceFiles(full);
      return Promise.resolve(entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : []);
    }),
  );
  return nested.flat();
}

it('every audit action the server writes has a French label (staff never read a raw identifier)', async () => {
  const written = new Set<string>();
  for (const file of await sourceFiles(sourceDir)) {
    const text = await readFile(file, 'utf8');
    for (const match of text.matchAll(/'([a-z_]+\.[a-z_]+)'/g)) {
      const name = match[1]!;
      // Audit actions are written as `action: '…'` or chosen into an `action` constant.
      if (new RegExp(`action[^\\n]{0,80}'${name.replace('.', '\\.')}'`).test(text)) written.add(name);
    }
  }
  expect(written.size).toBeGreaterThan(30);
  expect([...written].filter((action) => !(action in AUDIT_ACTION_LABELS)).sort()).toEqual([]);
});
