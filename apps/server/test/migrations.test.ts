import { execFileSync } from 'node:child_process';
import { cp, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const serverDir = fileURLToPath(new URL('..', import.meta.url));
const drizzleKit = path.resolve(serverDir, '../../node_modules/.bin/drizzle-kit');

it('the committed migrations match the table files (run `npm run db:generate -- --name <what>` after a schema change)', {
  timeout: 60_000,
}, async () => {
  // drizzle-kit on a copy of the committed migrations: nothing new may come out of it.
  const out = await mkdtemp(path.join(os.tmpdir(), 'bot-migrations-'));
  try {
    await cp(path.join(serverDir, 'drizzle'), out, { recursive: true });
    const before = (await readdir(out)).filter((file) => file.endsWith('.sql')).sort();
    const config = path.join(out, 'drizzle.config.json');
    await writeFile(
      config,
      JSON.stringify({
        dialect: 'postgresql',
        schema: path.join(serverDir, 'src/modules/**/*.table.ts'),
        out,
      }),
    );
    execFileSync(drizzleKit, ['generate', '--config', config, '--name', 'pending'], {
      cwd: serverDir,
      stdio: 'pipe',
    });
    const after = (await readdir(out)).filter((file) => file.endsWith('.sql')).sort();
    expect(after).toEqual(before);
  } finally {
    await rm(out, { recursive: true, force: true });
  }
});
