import {
  AUDIT_RETENTION_FLOOR_DAYS,
  type AuditEntry as AuditEntryView,
  type AuditQuery,
} from '@bot/contracts';
import { and, asc, desc, eq, gte, ilike, like, lt, lte, or, type SQL, sql } from 'drizzle-orm';
import { type AppContext, inTransaction, isInTransaction, type TxContext } from '../../context.ts';
import {
  inKeysetBatches,
  likePattern,
  orderOf,
  type PageTotal,
  pageOf,
  pageTotal,
} from '../../core/admin-list.ts';
import { deleteInBatches, retentionStart } from '../../core/batched-delete.ts';
import { AppError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { findOutrankingUserIds, outrankedByCondition } from '../access/index.ts';
import { users } from '../users/index.ts';
import { auditLog } from './audit.table.ts';

export interface AuditActor {
  id: string | null;
  username: string | null;
  ip: string | null;
}

export interface AuditEntry {
  actor: AuditActor;
  action: string;
  target?: { type: string; id: string; label?: string };
  before?: unknown;
  after?: unknown;
}

/**
 * Writes the audit entry of a change, in the change's own transaction (`inTransaction`): both
 * commit or neither does. It takes a `TxContext`, so a call outside one does not compile, and one
 * that gets there by a cast throws: never a change without its trace, nor a trace without its change.
 */
export async function writeAudit(tx: TxContext, entry: AuditEntry): Promise<void> {
  if (!isInTransaction(tx)) throw new AppError('AUDIT_OUTSIDE_TRANSACTION');
  await tx.db.insert(auditLog).values({
    id: newId(),
    actorId: entry.actor.id,
    actorUsername: entry.actor.username,
    action: entry.action,
    targetType: entry.target?.type ?? null,
    targetId: entry.target?.id ?? null,
    targetLabel: entry.target?.label ?? null,
    before: entry.before ?? null,
    after: entry.after ?? null,
    ip: entry.actor.ip,
  });
}

/** An attempt that was refused and changed nothing (a wrong password, a wrong code): its entry alone. */
export function recordRefusedAttempt(ctx: AppContext, entry: AuditEntry): Promise<void> {
  return inTransaction(ctx, (tx) => writeAudit(tx, entry));
}

type AuditRow = typeof auditLog.$inferSelect;

function toAuditEntry(row: AuditRow): AuditEntryView {
  return {
    id: row.id,
    at: row.at.toISOString(),
    actorId: row.actorId,
    actorUsername: row.actorUsername,
    action: row.action,
    targetType: row.targetType,
    targetId: row.targetId,
    targetLabel: row.targetLabel,
    before: row.before ?? null,
    after: row.after ?? null,
    ip: row.ip,
  };
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** WHERE of an audit list: actor (id or username), action (exact, or prefix `user.`), target, period, free text. */
function auditFilterOf(
  query: Partial<AuditQuery> & { involvingUserId?: string },
  ipSearchable: SQL | undefined,
): SQL | undefined {
  const conditions: (SQL | undefined)[] = [];
  if (query.actor) {
    conditions.push(
      UUID_PATTERN.test(query.actor)
        ? eq(auditLog.actorId, query.actor)
        : sql`lower(${auditLog.actorUsername}) = lower(${query.actor})`,
    );
  }
  if (query.action) {
    conditions.push(
      query.action.endsWith('.')
        ? like(auditLog.action, `${query.action.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)
        : eq(auditLog.action, query.action),
    );
  }
  if (query.targetType) conditions.push(eq(auditLog.targetType, query.targetType));
  if (query.target) {
    conditions.push(
      or(eq(auditLog.targetId, query.target), ilike(auditLog.targetLabel, likePattern(query.target))),
    );
  }
  if (query.from) conditions.push(gte(auditLog.at, new Date(query.from)));
  if (query.to) conditions.push(lte(auditLog.at, new Date(query.to)));
  if (query.q) {
    const pattern = likePattern(query.q);
    conditions.push(
      or(
        ilike(auditLog.action, pattern),
        ilike(auditLog.actorUsername, pattern),
        ilike(auditLog.targetLabel, pattern),
        and(ipSearchable, ilike(auditLog.ip, pattern)),
      ),
    );
  }
  if (query.involvingUserId) {
    conditions.push(
      or(
        eq(auditLog.actorId, query.involvingUserId),
        and(eq(auditLog.targetType, 'user'), eq(auditLog.targetId, query.involvingUserId)),
      ),
    );
  }
  return and(...conditions);
}

const AUDIT_SORTS = {
  at: auditLog.at,
  action: auditLog.action,
  actor: auditLog.actorUsername,
  target: auditLog.targetLabel,
  ip: auditLog.ip,
};

/**
 * An entry as its reader may read it (docs/decisions/404, reads): by an account that outranks the
 * reader, without that account's address; about one, without what changed on it (its e-mail, Discord
 * id, addresses…). Who, what and when stay.
 */
async function readableBy(
  ctx: AppContext,
  reader: { id: string },
  entries: AuditEntryView[],
): Promise<AuditEntryView[]> {
  const userTarget = (entry: AuditEntryView) => (entry.targetType === 'user' ? entry.targetId : null);
  const outranking = await findOutrankingUserIds(ctx, {
    actorId: reader.id,
    userIds: entries.flatMap((entry) => [entry.actorId, userTarget(entry)]),
  });
  if (outranking.size === 0) return entries;
  return entries.map((entry) => {
    const aboutOutranking = outranking.has(userTarget(entry) ?? '');
    const byOutranking = outranking.has(entry.actorId ?? '');
    if (!aboutOutranking && !byOutranking) return entry;
    return {
      ...entry,
      ip: byOutranking ? null : entry.ip,
      before: aboutOutranking ? null : entry.before,
      after: aboutOutranking ? null : entry.after,
    };
  });
}

/** Entries the reader may find by address: those by an actor they outrank (decision 404). */
const ipSearchableBy = (ctx: AppContext, reader: { id: string }) =>
  outrankedByCondition(ctx, {
    actorId: reader.id,
    userId: auditLog.actorId,
    isAdministrator: sql`(select ${users.isAdministrator} from ${users} where ${users.id} = ${auditLog.actorId})`,
  });

/** Filters matching more entries than this answer an estimated total (core/admin-list.ts). */
const EXACT_TOTAL_UP_TO = 10_000;

/**
 * One page of the audit trail, newest first unless sorted otherwise. Its total is exact up to
 * EXACT_TOTAL_UP_TO entries, the planner's estimate above (flagged `totalIsEstimate`): the unfiltered
 * trail has millions of entries.
 */
export async function listAudit(
  ctx: AppContext,
  query: AuditQuery & { involvingUserId?: string },
  reader: { id: string },
): Promise<{ data: AuditEntryView[] } & PageTotal> {
  const where = auditFilterOf(query, query.q ? await ipSearchableBy(ctx, reader) : undefined);
  const { limit, offset } = pageOf(query);
  const rows = await ctx.db
    .select()
    .from(auditLog)
    .where(where)
    .orderBy(orderOf(query.sort, AUDIT_SORTS, desc(auditLog.at)), desc(auditLog.id))
    .limit(limit)
    .offset(offset);
  const total = await pageTotal(ctx.db, {
    from: auditLog,
    where,
    offset,
    limit,
    rows: rows.length,
    exactUpTo: EXACT_TOTAL_UP_TO,
  });
  return { data: await readableBy(ctx, reader, rows.map(toAuditEntry)), ...total };
}

/** Every entry matching the filters, fetched page by page (for the CSV export). */
export function streamAudit(
  ctx: AppContext,
  query: Partial<AuditQuery>,
  reader: { id: string },
): AsyncIterable<AuditEntryView> {
  let filter: Promise<SQL | undefined> | undefined;
  // Newest first by the UUID v7 id (write order), keyset-paged: the trail only grows.
  return inKeysetBatches(
    async (before: string | undefined, limit) => {
      filter ??= (query.q ? ipSearchableBy(ctx, reader) : Promise.resolve(undefined)).then((searchable) =>
        auditFilterOf(query, searchable),
      );
      const where = await filter;
      return readableBy(
        ctx,
        reader,
        (
          await ctx.db
            .select()
            .from(auditLog)
            .where(and(where, before ? lt(auditLog.id, before) : undefined))
            .orderBy(desc(auditLog.id))
            .limit(limit)
        ).map(toAuditEntry),
      );
    },
    (entry) => entry.id,
  );
}

/** The distinct action names present in the trail (the filter's choices). */
export async function listAuditActions(ctx: AppContext): Promise<string[]> {
  const rows = await ctx.db
    .selectDistinct({ action: auditLog.action })
    .from(auditLog)
    .orderBy(asc(auditLog.action));
  return rows.map((row) => row.action);
}

/**
 * How many times, since a date, a user did an action to their own account, oldest first (the
 * self-service hwid resets the monthly cap counts: decision 906). Staff actions on them are not theirs.
 */
export async function listOwnActionsSince(
  ctx: AppContext,
  input: { userId: string; action: string; since: Date },
): Promise<Date[]> {
  const rows = await ctx.db
    .select({ at: auditLog.at })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.actorId, input.userId),
        gte(auditLog.at, input.since),
        eq(auditLog.action, input.action),
        eq(auditLog.targetType, 'user'),
        eq(auditLog.targetId, input.userId),
      ),
    )
    .orderBy(asc(auditLog.at));
  return rows.map((row) => row.at);
}

/**
 * Deletes the entries older than `days` (`auditRetentionDays`, at least a year: the setting refuses
 * less, docs/capacity.md). The caller reads the setting: the settings module writes audit entries, so
 * this module does not import it back.
 */
export async function pruneAuditLog(ctx: AppContext, input: { days: number; now?: Date }): Promise<number> {
  // The floor holds even against a value that reached the table some other way.
  const days = Math.max(input.days, AUDIT_RETENTION_FLOOR_DAYS);
  const before = retentionStart(input.now ?? new Date(), days);
  return deleteInBatches(ctx.db, auditLog, lt(auditLog.at, before));
}
