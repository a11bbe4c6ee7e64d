import { boolean, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { json } from '../../db/json-column.ts';

/**
 * The key sets the offline root signed (docs/licensing.md, decision 912), one row per version: the
 * highest version is the one every node serves and agents accept. The root's private key is never
 * here; its public key is kept to tell staff (and, on a loopback installation, the simulator) which
 * root signed.
 */
export const keySets = pgTable('key_sets', {
  version: integer('version').primaryKey(),
  /** The compact JWS (`typ` bot-keyset+jwt) agents verify against their pinned root. */
  token: text('token').notNull(),
  /** RFC 7638 thumbprint of the root that signed it. */
  rootKid: text('root_kid').notNull(),
  rootPublicJwk: json('root_public_jwk').$type<Record<string, string>>().notNull(),
  /** Signed by the development root a loopback installation makes in DATA_DIR. */
  isDevelopmentRoot: boolean('is_development_root').notNull(),
  issuedAt: timestamp('issued_at', { withTimezone: true }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

export type KeySetRow = typeof keySets.$inferSelect;
