import type {
  AdminWhitelistEntry,
  AdminWhitelistQuery,
  WhitelistEntry,
  WhitelistSlots,
} from '@bot/contracts';
import { and, asc, count, desc, eq, ilike, inArray, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { type AppContext, inTransaction } from '../../context.ts';
import { likePattern, orderOf, pageOf } from '../../core/admin-list.ts';
import { AppError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { findOutrankingUserIds, outrankedByCondition } from '../access/index.ts';
import { type AuditActor, writeAudit } from '../audit/index.ts';
import { countWhitelistSlots } from '../orders/index.ts';
import { assertMayManageUser } from '../permissions-admin/index.ts';
import { findUserByUsername, getUserById, users } from '../users/index.ts';
import { type WhitelistEntryRow, whitelistEntries } from './whitelist.table.ts';

/** The game account names a user's bot may drive, oldest first. */
export async function listWhitelistedAccountNames(ctx: AppContext, userId: string): Promise<string[]> {
  const rows = await ctx.db
    .select({ name: whitelistEntries.name })
    .from(whitelistEntries)
    .where(eq(whitelistEntries.userId, userId))
    .orderBy(asc(whitelistEntries.createdAt), asc(whitelistEntries.id));
  return rows.map((row) => row.name);
}

/** The whitelisted game account names of many users, in one query. */
export async function listWhitelistedAccountNamesOfUsers(
  ctx: AppContext,
  userIds: readonly string[],
): Promise<{ userId: string; name: string }[]> {
  if (userIds.length === 0) return [];
  return ctx.db
    .select({ userId: whitelistEntries.userId, name: whitelistEntries.name })
    .from(whitelistEntries)
    .where(inArray(whitelistEntries.userId, [...new Set(userIds)]));
}

const NAME_INDEX = 'whitelist_entries_name_lower_idx';

function toEntry(row: WhitelistEntryRow): WhitelistEntry {
  return { id: row.id, name: row.name, createdAt: row.createdAt.toISOString() };
}

/** Serialises a customer's whitelist changes, so two adds at once cannot both take the last slot. */
async function lockWhitelist(ctx: AppContext, userId: string): Promise<void> {
  await ctx.db.execute(sql`select pg_advisory_xact_lock(hashtext(${`whitelist:${userId}`}))`);
}

async function countEntries(ctx: AppContext, userId: string): Promise<number> {
  const [row] = await ctx.db
    .select({ value: count() })
    .from(whitelistEntries)
    .where(eq(whitelistEntries.userId, userId));
  return row?.value ?? 0;
}

/** Slots of a customer: those of their running packages; administrators have no limit (null). */
async function slotsOf(ctx: AppContext, userId: string): Promise<number | null> {
  const user = await getUserById(ctx, userId);
  if (user.isAdministrator) return null;
  return countWhitelistSlots(ctx, userId);
}

/** The customer's whitelist and slot usage. */
export async function getMyWhitelist(
  ctx: AppContext,
  userId: string,
): Promise<{ data: WhitelistEntry[]; slots: WhitelistSlots }> {
  const rows = await ctx.db
    .select()
    .from(whitelistEntries)
    .where(eq(whitelistEntries.userId, userId))
    .orderBy(asc(whitelistEntries.createdAt), asc(whitelistEntries.id));
  return { data: rows.map(toEntry), slots: { used: rows.length, total: await slotsOf(ctx, userId) } };
}

async function insertEntry(
  ctx: AppContext,
  input: { userId: string; name: string; createdById: string },
): Promise<WhitelistEntryRow> {
  try {
    // A savepoint keeps the caller's transaction usable after a unique violation on PostgreSQL.
    return await ctx.db.transaction(async (inner) => {
      const [row] = await inner
        .insert(whitelistEntries)
        .values({ id: newId(), userId: input.userId, name: input.name, createdById: input.createdById })
        .returning();
      if (!row) throw new AppError('INTERNAL');
      return row;
    });
  } catch (error) {
    if (isUniqueViolation(error, NAME_INDEX)) throw new AppError('WHITELIST_NAME_TAKEN');
    throw error;
  }
}

/** Adds a game account to the customer's own whitelist, within their slots (audited like staff's). */
export async function addToMyWhitelist(
  ctx: AppContext,
  input: { userId: string; name: string; ip: string | null },
): Promise<WhitelistEntry> {
  const entry = await inTransaction(ctx, async (tx) => {
    await lockWhitelist(tx, input.userId);
    const total = await slotsOf(tx, input.userId);
    if (total !== null && (await countEntries(tx, input.userId)) >= total)
      throw new AppError('WHITELIST_FULL');
    const owner = await getUserById(tx, input.userId);
    const row = await insertEntry(tx, { userId: owner.id, name: input.name, createdById: owner.id });
    await writeAudit(tx, {
      actor: { id: owner.id, username: owner.username, ip: input.ip },
      action: 'whitelist.add',
      target: { type: 'whitelist', id: row.id, label: `${row.name} (${owner.username})` },
      after: toEntry(row),
    });
    tx.events.emit('whitelist.changed', { userId: owner.id });
    return row;
  });
  return toEntry(entry);
}

/** Removes one of the customer's own entries (another customer's is a 404), audited. */
export function removeFromMyWhitelist(
  ctx: AppContext,
  input: { userId: string; entryId: string; ip: string | null },
): Promise<void> {
  return inTransaction(ctx, async (tx) => {
    const [removed] = await tx.db
      .delete(whitelistEntries)
      .where(and(eq(whitelistEntries.id, input.entryId), eq(whitelistEntries.userId, input.userId)))
      .returning();
    if (!removed) throw new AppError('WHITELIST_ENTRY_NOT_FOUND');
    const owner = await getUserById(tx, input.userId);
    await writeAudit(tx, {
      actor: { id: owner.id, username: owner.username, ip: input.ip },
      action: 'whitelist.remove',
      target: { type: 'whitelist', id: removed.id, label: `${removed.name} (${owner.username})` },
      before: toEntry(removed),
    });
    tx.events.emit('whitelist.changed', { userId: owner.id });
  });
}

// ---------------------------------------------------------------------------------------------
// Staff

const creators = alias(users, 'creators');

const adminColumns = {
  entry: whitelistEntries,
  username: users.username,
  creatorUsername: creators.username,
};

function toAdminEntry(row: {
  entry: WhitelistEntryRow;
  username: string;
  creatorUsername: string | null;
}): AdminWhitelistEntry {
  return {
    ...toEntry(row.entry),
    user: { id: row.entry.userId, username: row.username },
    createdBy:
      row.entry.createdById && row.creatorUsername
        ? { id: row.entry.createdById, username: row.creatorUsername }
        : null,
  };
}

function adminSelect(ctx: AppContext) {
  return ctx.db
    .select(adminColumns)
    .from(whitelistEntries)
    .innerJoin(users, eq(users.id, whitelistEntries.userId))
    .leftJoin(creators, eq(creators.id, whitelistEntries.createdById));
}

/**
 * Every entry, searchable by account name or customer. The game account is the customer's data: an
 * account that outranks the reader shows its entries by identity only (entry, date, username) and is
 * not found by a game account name (docs/decisions/404-no-privilege-escalation.md, reads).
 */
export async function listWhitelist(
  ctx: AppContext,
  query: AdminWhitelistQuery,
  reader: { id: string },
): Promise<{ data: AdminWhitelistEntry[]; total: number }> {
  const filters: SQL[] = [];
  if (query.q) {
    const pattern = likePattern(query.q);
    const searchable = await outrankedByCondition(ctx, {
      actorId: reader.id,
      userId: whitelistEntries.userId,
      isAdministrator: users.isAdministrator,
    });
    filters.push(
      or(and(searchable, ilike(whitelistEntries.name, pattern)), ilike(users.username, pattern)) as SQL,
    );
  }
  if (query.userId) filters.push(eq(whitelistEntries.userId, query.userId));
  const where = filters.length ? and(...filters) : undefined;
  const order = orderOf(
    query.sort,
    { name: whitelistEntries.name, createdAt: whitelistEntries.createdAt, username: users.username },
    desc(whitelistEntries.createdAt),
  );
  const { limit, offset } = pageOf(query);
  const rows = await adminSelect(ctx)
    .where(where)
    .orderBy(order, desc(whitelistEntries.id))
    .limit(limit)
    .offset(offset);
  const [total] = await ctx.db
    .select({ value: count() })
    .from(whitelistEntries)
    .innerJoin(users, eq(users.id, whitelistEntries.userId))
    .where(where);
  const outranking = await findOutrankingUserIds(ctx, {
    actorId: reader.id,
    userIds: rows.map((row) => row.entry.userId),
  });
  const data = rows
    .map(toAdminEntry)
    .map((entry) => (outranking.has(entry.user.id) ? { ...entry, name: '' } : entry));
  return { data, total: total?.value ?? 0 };
}

async function getAdminEntry(ctx: AppContext, id: string): Promise<AdminWhitelistEntry> {
  const [row] = await adminSelect(ctx).where(eq(whitelistEntries.id, id));
  if (!row) throw new AppError('WHITELIST_ENTRY_NOT_FOUND');
  return toAdminEntry(row);
}

/**
 * Staff add an account for a customer; slots do not bind staff, the staff rank does (an account
 * that outranks the actor is refused, decision 404).
 */
export async function addWhitelistEntryForCustomer(
  ctx: AppContext,
  input: { username: string; name: string; actor: AuditActor },
): Promise<AdminWhitelistEntry> {
  const customer = await findUserByUsername(ctx, input.username);
  if (!customer) throw new AppError('USER_NOT_FOUND');
  return inTransaction(ctx, async (tx) => {
    await assertMayManageUser(tx, { actorId: input.actor.id, target: customer });
    await lockWhitelist(tx, customer.id);
    const row = await insertEntry(tx, {
      userId: customer.id,
      name: input.name,
      createdById: input.actor.id ?? customer.id,
    });
    const created = await getAdminEntry(tx, row.id);
    await writeAudit(tx, {
      actor: input.actor,
      action: 'whitelist.add',
      target: { type: 'whitelist', id: row.id, label: `${row.name} (${customer.username})` },
      after: created,
    });
    tx.events.emit('whitelist.changed', { userId: customer.id });
    return created;
  });
}

/** Staff remove an entry, unless its account outranks them (decision 404); audited. */
export async function removeWhitelistEntry(
  ctx: AppContext,
  input: { id: string; actor: AuditActor },
): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    const before = await getAdminEntry(tx, input.id);
    const owner = await getUserById(tx, before.user.id);
    await assertMayManageUser(tx, { actorId: input.actor.id, target: owner });
    await tx.db.delete(whitelistEntries).where(eq(whitelistEntries.id, input.id));
    await writeAudit(tx, {
      actor: input.actor,
      action: 'whitelist.remove',
      target: { type: 'whitelist', id: before.id, label: `${before.name} (${before.user.username})` },
      before,
    });
    tx.events.emit('whitelist.changed', { userId: before.user.id });
  });
}
