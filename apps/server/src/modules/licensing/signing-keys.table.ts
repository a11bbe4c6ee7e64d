import { sql } from 'drizzle-orm';
import { pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { json } from '../../db/json-column.ts';

/**
 * The Ed25519 keys that sign bot leases (docs/licensing.md), shared by every node. The private key
 * is stored sealed (AES-256-GCM with the server's sealing key), never in clear; at most one key is
 * `current` (the partial unique index settles two nodes creating the first one at once).
 */
export const signingKeys = pgTable(
  'signing_keys',
  {
    /** The RFC 7638 thumbprint of the public key. */
    kid: text('kid').primaryKey(),
    /** What the key signs: bot leases, or release manifests (decision 910); one current key each. */
    purpose: text('purpose', { enum: ['lease', 'release'] })
      .notNull()
      .default('lease'),
    /**
     * `standby`: signed into the key set beside the current key, never used until a revocation of
     * the current key promotes it without the root (decision 912).
     */
    state: text('state', { enum: ['current', 'standby', 'previous', 'revoked'] }).notNull(),
    /** The public JWK, as the JWKS publishes it. */
    publicJwk: json('public_jwk').$type<Record<string, string>>().notNull(),
    privateJwkSealed: text('private_jwk_sealed').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** When a rotation made it `previous`. */
    retiredAt: timestamp('retired_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** The signed revocation statement (`typ` bot-key-revocation+jwt) agents verify before dropping it. */
    revocationStatement: text('revocation_statement'),
  },
  (t) => [uniqueIndex('signing_keys_one_current_idx').on(t.purpose, t.state).where(sql`state = 'current'`)],
);

export type SigningKeyRow = typeof signingKeys.$inferSelect;
