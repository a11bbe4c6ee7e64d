import { ensureTemplate } from './database.ts';

/** Builds the migrated template database once for the whole run. */
export default async function setup(): Promise<void> {
  await ensureTemplate();
}
