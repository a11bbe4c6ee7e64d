import type { Package, PackageListQuery, PackageUpdateInput, packageInput } from '@bot/contracts';
import { and, asc, count, eq, ilike, inArray, isNotNull, isNull, max, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { type AppContext, inTransaction } from '../../context.ts';
import { likePattern, orderOf, pageOf } from '../../core/admin-list.ts';
import { AppError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { type AuditActor, writeAudit } from '../audit/index.ts';
import { type PackageRow, packages } from './catalog.table.ts';

export function toPackage(row: PackageRow): Package {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    priceCents: row.priceCents,
    currency: row.currency as Package['currency'],
    durationDays: row.durationDays,
    grants: row.grants,
    whitelistSlots: row.whitelistSlots,
    sortOrder: row.sortOrder,
    active: row.active && !row.retiredAt,
    retiredAt: row.retiredAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const isBuyable = and(eq(packages.active, true), isNull(packages.retiredAt));

/** The packages on sale, in the staff's order. */
export async function listActivePackages(ctx: AppContext): Promise<Package[]> {
  const rows = await ctx.db
    .select()
    .from(packages)
    .where(isBuyable)
    .orderBy(asc(packages.sortOrder), asc(packages.createdAt));
  return rows.map(toPackage);
}

export async function findPackageById(ctx: AppContext, id: string): Promise<PackageRow | undefined> {
  const [row] = await ctx.db.select().from(packages).where(eq(packages.id, id));
  return row;
}

export async function getPackageById(ctx: AppContext, id: string): Promise<PackageRow> {
  const row = await findPackageById(ctx, id);
  if (!row) throw new AppError('PACKAGE_NOT_FOUND');
  return row;
}

/** A package a customer may buy now, or PACKAGE_NOT_AVAILABLE. */
export async function getBuyablePackage(ctx: AppContext, id: string): Promise<PackageRow> {
  const row = await findPackageById(ctx, id);
  if (!row?.active || row.retiredAt) throw new AppError('PACKAGE_NOT_AVAILABLE');
  return row;
}

/** Admin list: every package, filtered by status and name. */
export async function listPackages(
  ctx: AppContext,
  query: PackageListQuery,
): Promise<{ data: Package[]; total: number }> {
  const filters: SQL[] = [];
  if (query.q) filters.push(ilike(packages.name, likePattern(query.q)));
  if (query.status === 'active') filters.push(isBuyable as SQL);
  if (query.status === 'inactive')
    filters.push(and(eq(packages.active, false), isNull(packages.retiredAt)) as SQL);
  if (query.status === 'retired') filters.push(isNotNull(packages.retiredAt));
  const where = filters.length ? and(...filters) : undefined;
  const order = orderOf(
    query.sort,
    {
      sortOrder: packages.sortOrder,
      name: packages.name,
      priceCents: packages.priceCents,
      durationDays: packages.durationDays,
      createdAt: packages.createdAt,
    },
    asc(packages.sortOrder),
  );
  const { limit, offset } = pageOf(query);
  const rows = await ctx.db
    .select()
    .from(packages)
    .where(where)
    .orderBy(order, asc(packages.createdAt))
    .limit(limit)
    .offset(offset);
  const [total] = await ctx.db.select({ value: count() }).from(packages).where(where);
  return { data: rows.map(toPackage), total: total?.value ?? 0 };
}

const auditTarget = (row: PackageRow) => ({ type: 'package', id: row.id, label: row.name });

/** Creates a package at the end of the list. */
export async function createPackage(
  ctx: AppContext,
  input: { data: z.output<typeof packageInput>; actor: AuditActor },
): Promise<Package> {
  return inTransaction(ctx, async (tx) => {
    const [last] = await tx.db.select({ value: max(packages.sortOrder) }).from(packages);
    const [row] = await tx.db
      .insert(packages)
      .values({ id: newId(), ...input.data, sortOrder: (last?.value ?? -1) + 1 })
      .returning();
    if (!row) throw new AppError('INTERNAL');
    await writeAudit(tx, {
      actor: input.actor,
      action: 'package.create',
      target: auditTarget(row),
      after: toPackage(row),
    });
    return toPackage(row);
  });
}

/** Edits a package; `retired` retires it (off sale for good, kept on its orders) or brings it back inactive. */
export async function updatePackage(
  ctx: AppContext,
  input: { id: string; data: PackageUpdateInput; actor: AuditActor },
): Promise<Package> {
  return inTransaction(ctx, async (tx) => {
    const [before] = await tx.db.select().from(packages).where(eq(packages.id, input.id)).for('update');
    if (!before) throw new AppError('PACKAGE_NOT_FOUND');
    const { retired, ...fields } = input.data;
    const changes: Partial<typeof packages.$inferInsert> = { ...fields, updatedAt: new Date() };
    if (retired === true) {
      if (fields.active) throw new AppError('PACKAGE_RETIRED');
      changes.retiredAt = before.retiredAt ?? new Date();
      changes.active = false;
    } else if (retired === false) {
      changes.retiredAt = null;
      changes.active = fields.active ?? false;
    } else if (before.retiredAt && fields.active) {
      throw new AppError('PACKAGE_RETIRED');
    }
    const [row] = await tx.db.update(packages).set(changes).where(eq(packages.id, input.id)).returning();
    if (!row) throw new AppError('INTERNAL');
    const action = retired === true ? 'package.retire' : 'package.update';
    await writeAudit(tx, {
      actor: input.actor,
      action,
      target: auditTarget(row),
      before: toPackage(before),
      after: toPackage(row),
    });
    return toPackage(row);
  });
}

/** Puts the listed packages first, in that order; the others keep their relative order after them. */
export async function reorderPackages(
  ctx: AppContext,
  input: { ids: string[]; actor: AuditActor },
): Promise<Package[]> {
  if (new Set(input.ids).size !== input.ids.length) throw new AppError('PACKAGE_REORDER_MISMATCH');
  return inTransaction(ctx, async (tx) => {
    const all = await tx.db
      .select()
      .from(packages)
      .orderBy(asc(packages.sortOrder), asc(packages.createdAt))
      .for('update');
    const known = new Set(all.map((row) => row.id));
    if (input.ids.some((id) => !known.has(id))) throw new AppError('PACKAGE_REORDER_MISMATCH');
    const listed = new Set(input.ids);
    const ordered = [...input.ids, ...all.filter((row) => !listed.has(row.id)).map((row) => row.id)];
    const before = all.map((row) => row.id);
    if (ordered.length > 0) {
      const cases = sql.join(
        ordered.map((id, index) => sql`when ${id}::uuid then ${index}::int`),
        sql` `,
      );
      await tx.db
        .update(packages)
        .set({ sortOrder: sql`case ${packages.id} ${cases} end`, updatedAt: new Date() })
        .where(inArray(packages.id, ordered));
    }
    await writeAudit(tx, {
      actor: input.actor,
      action: 'package.reorder',
      target: { type: 'package', id: ordered[0] ?? '', label: 'ordre des offres' },
      before,
      after: ordered,
    });
    const rows = await tx.db.select().from(packages).orderBy(asc(packages.sortOrder));
    return rows.map(toPackage);
  });
}
