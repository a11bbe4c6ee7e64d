import { asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { whitelistEntries } from './whitelist.table.ts';

/** The game account names a user's bot may drive, oldest first. */
export async function listWhitelistedAccountNames(db: DbOrTx, userId: string): Promise<string[]> {
  const rows = await db
    .select({ name: whitelistEntries.name })
    .from(whitelistEntries)
    .where(eq(whitelistEntries.userId, userId))
    .orderBy(asc(whitelistEntries.createdAt), asc(whitelistEntries.id));
  return rows.map((row) => row.name);
}
