import { chmod, mkdir, mkdtemp, rm, stat, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tightenTree } from './private-files.ts';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});
const modeOf = async (file: string) => (await stat(file)).mode & 0o777;

describe('tightenTree', () => {
  it('takes group and other permissions off a tree, keeps the owner’s bits, never follows a link out', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'bot-private-'));
    const outside = await mkdtemp(path.join(os.tmpdir(), 'bot-outside-'));
    dirs.push(root, outside);
    await mkdir(path.join(root, 'pglite', 'base'), { recursive: true });
    await writeFile(path.join(root, 'pglite', 'base', '1259'), 'page');
    await writeFile(path.join(root, 'script.sh'), '#!/bin/sh');
    await writeFile(path.join(outside, 'shared.txt'), 'public');
    await symlink(outside, path.join(root, 'lien'));
    await chmod(root, 0o755);
    await chmod(path.join(root, 'pglite'), 0o755);
    await chmod(path.join(root, 'pglite', 'base', '1259'), 0o666);
    await chmod(path.join(root, 'script.sh'), 0o755);
    await chmod(outside, 0o755);
    await chmod(path.join(outside, 'shared.txt'), 0o644);

    await tightenTree(root);

    expect(await modeOf(root)).toBe(0o700);
    expect(await modeOf(path.join(root, 'pglite'))).toBe(0o700);
    expect(await modeOf(path.join(root, 'pglite', 'base', '1259'))).toBe(0o600);
    expect(await modeOf(path.join(root, 'script.sh'))).toBe(0o700); // still runs for its owner
    expect(await modeOf(outside)).toBe(0o755);
    expect(await modeOf(path.join(outside, 'shared.txt'))).toBe(0o644);
    await expect(tightenTree(path.join(root, 'absent'))).resolves.toBeUndefined();
  });
});
