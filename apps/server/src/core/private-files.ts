import { chmod, lstat, readdir } from 'node:fs/promises';
import path from 'node:path';

/**
 * Nothing the server keeps at rest is for other local users (docs/security.md, "Storage"): the
 * processes run with a private umask (`usePrivateUmask`), and what is already on disk is tightened
 * (folders 0700, files 0600). PGlite sets its own files to 0666 whatever the umask, so DATA_DIR is
 * tightened when the server starts and again when it stops.
 */
const PRIVATE_UMASK = 0o077;

/** New files and folders of this process are its user's only (main.ts and every CLI call it first). */
export function usePrivateUmask(): void {
  process.umask(PRIVATE_UMASK);
}

/**
 * Takes every group and other permission off `root` and what it holds (PGlite's 0666 files become
 * 0600, 0755 folders 0700); the owner's own bits are kept, so nothing of the owner's stops working
 * if DATA_DIR points at a folder holding more than the server's data. Symbolic links are not
 * followed; a missing root is nothing to do; a file this user cannot change is left as it is.
 */
export async function tightenTree(root: string): Promise<void> {
  let stat: Awaited<ReturnType<typeof lstat>>;
  try {
    stat = await lstat(root);
  } catch {
    return;
  }
  if (stat.isSymbolicLink()) return;
  if ((stat.mode & 0o077) !== 0) await chmod(root, stat.mode & 0o700).catch(() => undefined);
  if (!stat.isDirectory()) return;
  let entries: string[];
  try {
    entries = await readdir(root);
  } catch {
    return;
  }
  for (const entry of entries) await tightenTree(path.join(root, entry));
}
