import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const serverDir = fileURLToPath(new URL('..', import.meta.url));
const drizzleKit = path.resolve(serverDir, '../../node_modules/.bin/drizzle-kit');

it('the committed migration matches the table files (run `npm run db:generate` after a schema change)', {
  timeout: 60_000,
}, async () => {
  const out = await mkdtemp(path.join(os.tmpdir(), 'bot-migrations-'));
  try {
    const config = path.join(out, 'drizzle.config.json');
    await writeFile(
      config,
      JSON.stringify({
        dialect: 'postgresql',
        schema: path.join(serverDir, 'src/modules/**/*.table.ts'),
        out,
      }),
    );
    execFileSync(drizzleKit, ['generate', '--config', config, '--name', 'init'], {
      cwd: serverDir,
      stdio: 'pipe',
    });
    const generated = (await readdir(out)).filter((file) => file.endsWith('.sql'));
    expect(generated).toEqual(['0000_init.sql']);
    const fresh = await readFile(path.join(out, '0000_init.sql'), 'utf8');
    const committed = await readFile(path.join(serverDir, 'drizzle/0000_init.sql'), 'utf8');
    expect(fresh).toBe(committed);
  } finally {
    await rm(out, { recursive: true, force: true });
  }
});
