import { usePrivateUmask } from '../core/private-files.ts';
import { explainStartupError } from '../core/startup-errors.ts';

/** Runs a command-line task: a failure is one French sentence and exit code 1 (the stack with LOG_LEVEL=debug). */
export async function runCli(task: () => Promise<void>): Promise<void> {
  // Backups, the database and keys a task writes are its user's only (docs/security.md, "Storage").
  usePrivateUmask();
  try {
    await task();
  } catch (error) {
    const context = { dataDir: process.env.DATA_DIR ?? './data', port: 0, host: '' };
    console.error(explainStartupError(error, context) ?? (error as Error).message);
    if (process.env.LOG_LEVEL === 'debug' || process.env.LOG_LEVEL === 'trace') console.error(error);
    process.exit(1);
  }
}
