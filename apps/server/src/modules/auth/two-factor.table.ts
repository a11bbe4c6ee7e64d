import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { userIdColumn, users } from '../users/index.ts';

/**
 * One authenticator per account. The TOTP secret is sealed (the server must read it again to check
 * codes). `enabledAt` stays null while an enrolment waits for its first code.
 */
export const twoFactor = pgTable('two_factor', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secretSealed: text('secret_sealed').notNull(),
  enabledAt: timestamp('enabled_at', { withTimezone: true }),
  /** The 30-second step of the last accepted code: a code is accepted once (RFC 6238 section 5.2). */
  lastUsedStep: integer('last_used_step').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Single-use recovery codes, stored as SHA-256 hashes (they are random, ~50 bits each). */
export const twoFactorRecoveryCodes = pgTable(
  'two_factor_recovery_codes',
  {
    id: uuid('id').primaryKey(),
    userId: userIdColumn(),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('two_factor_recovery_codes_user_idx').on(t.userId)],
);
