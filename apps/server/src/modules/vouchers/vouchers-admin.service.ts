import {
  type ListQuery,
  type Voucher,
  type VoucherListQuery,
  type VoucherUpdateInput,
  type voucherInput,
  voucherProblems,
} from '@bot/contracts';
import { and, count, desc, eq, ilike, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { type AppContext, inTransaction } from '../../context.ts';
import { likePattern, orderOf, pageOf } from '../../core/admin-list.ts';
import { AppError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { type AuditActor, writeAudit } from '../audit/index.ts';
import { findPackageById, packages } from '../catalog/index.ts';
import { users } from '../users/index.ts';
import { generateVoucherCode } from './vouchers.service.ts';
import { type VoucherRow, voucherRedemptions, vouchers } from './vouchers.table.ts';

/** Staff: vouchers — list, create, edit, delete, redemptions. Redemption at checkout: vouchers.service.ts. */

const voucherColumns = {
  id: vouchers.id,
  code: vouchers.code,
  kind: vouchers.kind,
  percentOff: vouchers.percentOff,
  amountOffCents: vouchers.amountOffCents,
  packageId: vouchers.packageId,
  packageName: packages.name,
  maxRedemptions: vouchers.maxRedemptions,
  perCustomerLimit: vouchers.perCustomerLimit,
  redemptionsCount: vouchers.redemptionsCount,
  startsAt: vouchers.startsAt,
  endsAt: vouchers.endsAt,
  active: vouchers.active,
  note: vouchers.note,
  createdAt: vouchers.createdAt,
};

type VoucherListRow = VoucherRow & { packageName: string | null };

function toVoucher(row: Omit<VoucherListRow, 'createdById' | 'updatedAt'>): Voucher {
  return {
    id: row.id,
    code: row.code,
    kind: row.kind,
    percentOff: row.percentOff,
    amountOffCents: row.amountOffCents,
    packageId: row.packageId,
    packageName: row.packageName,
    maxRedemptions: row.maxRedemptions,
    perCustomerLimit: row.perCustomerLimit,
    redemptionsCount: row.redemptionsCount,
    startsAt: row.startsAt?.toISOString() ?? null,
    endsAt: row.endsAt?.toISOString() ?? null,
    active: row.active,
    note: row.note,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function listVouchers(
  ctx: AppContext,
  query: VoucherListQuery,
): Promise<{ data: Voucher[]; total: number }> {
  const filters: SQL[] = [];
  if (query.q) filters.push(ilike(vouchers.code, likePattern(query.q)));
  if (query.kind) filters.push(eq(vouchers.kind, query.kind));
  if (query.active) filters.push(eq(vouchers.active, query.active === 'true'));
  const where = filters.length ? and(...filters) : undefined;
  const order = orderOf(
    query.sort,
    {
      code: vouchers.code,
      kind: vouchers.kind,
      redemptionsCount: vouchers.redemptionsCount,
      createdAt: vouchers.createdAt,
      endsAt: vouchers.endsAt,
    },
    desc(vouchers.createdAt),
  );
  const { limit, offset } = pageOf(query);
  const rows = await ctx.db
    .select(voucherColumns)
    .from(vouchers)
    .leftJoin(packages, eq(packages.id, vouchers.packageId))
    .where(where)
    .orderBy(order, desc(vouchers.id))
    .limit(limit)
    .offset(offset);
  const [total] = await ctx.db.select({ value: count() }).from(vouchers).where(where);
  return { data: rows.map(toVoucher), total: total?.value ?? 0 };
}

export async function getVoucher(ctx: AppContext, id: string): Promise<Voucher> {
  const [row] = await ctx.db
    .select(voucherColumns)
    .from(vouchers)
    .leftJoin(packages, eq(packages.id, vouchers.packageId))
    .where(eq(vouchers.id, id));
  if (!row) throw new AppError('VOUCHER_NOT_FOUND');
  return toVoucher(row);
}

async function assertPackageExists(ctx: AppContext, packageId: string | null | undefined): Promise<void> {
  if (packageId && !(await findPackageById(ctx, packageId))) throw new AppError('VOUCHER_PACKAGE_UNKNOWN');
}

const dateOrNull = (value: string | null | undefined): Date | null | undefined =>
  value === undefined ? undefined : value === null ? null : new Date(value);

const auditTarget = (voucher: { id: string; code: string }) => ({
  type: 'voucher',
  id: voucher.id,
  label: voucher.code,
});

/** Creates a voucher with the typed code, or a generated one. */
export async function createVoucher(
  ctx: AppContext,
  input: { data: z.output<typeof voucherInput>; actor: AuditActor },
): Promise<Voucher> {
  const { data } = input;
  await assertPackageExists(ctx, data.packageId);
  const id = newId();
  try {
    await inTransaction(ctx, async (tx) => {
      await tx.db.insert(vouchers).values({
        id,
        code: data.code ?? generateVoucherCode(),
        kind: data.kind,
        percentOff: data.kind === 'percent' ? (data.percentOff ?? null) : null,
        amountOffCents: data.kind === 'fixed' ? (data.amountOffCents ?? null) : null,
        packageId: data.packageId ?? null,
        maxRedemptions: data.maxRedemptions ?? null,
        perCustomerLimit: data.perCustomerLimit ?? null,
        startsAt: dateOrNull(data.startsAt) ?? null,
        endsAt: dateOrNull(data.endsAt) ?? null,
        active: data.active ?? true,
        note: data.note ?? '',
        createdById: input.actor.id,
      });
      const created = await getVoucher(tx, id);
      await writeAudit(tx, {
        actor: input.actor,
        action: 'voucher.create',
        target: auditTarget(created),
        after: created,
      });
    });
  } catch (error) {
    if (isUniqueViolation(error, 'vouchers_code_upper_idx')) throw new AppError('VOUCHER_CODE_TAKEN');
    throw error;
  }
  return getVoucher(ctx, id);
}

/** Edits a voucher's terms; its code and kind stay (they are what customers were given). */
export async function updateVoucher(
  ctx: AppContext,
  input: { id: string; data: VoucherUpdateInput; actor: AuditActor },
): Promise<Voucher> {
  const { data } = input;
  await assertPackageExists(ctx, data.packageId);
  return inTransaction(ctx, async (tx) => {
    const [row] = await tx.db.select().from(vouchers).where(eq(vouchers.id, input.id)).for('update');
    if (!row) throw new AppError('VOUCHER_NOT_FOUND');
    const before = await getVoucher(tx, input.id);
    const merged = {
      kind: row.kind,
      percentOff: data.percentOff === undefined ? row.percentOff : data.percentOff,
      amountOffCents: data.amountOffCents === undefined ? row.amountOffCents : data.amountOffCents,
      packageId: data.packageId === undefined ? row.packageId : data.packageId,
      startsAt: data.startsAt === undefined ? (row.startsAt?.toISOString() ?? null) : data.startsAt,
      endsAt: data.endsAt === undefined ? (row.endsAt?.toISOString() ?? null) : data.endsAt,
    };
    const problems = voucherProblems(merged);
    if (problems.length > 0) throw new AppError('VALIDATION_ERROR', { details: problems });
    await tx.db
      .update(vouchers)
      .set({
        percentOff: data.percentOff,
        amountOffCents: data.amountOffCents,
        packageId: data.packageId,
        maxRedemptions: data.maxRedemptions,
        perCustomerLimit: data.perCustomerLimit,
        startsAt: dateOrNull(data.startsAt),
        endsAt: dateOrNull(data.endsAt),
        active: data.active,
        note: data.note,
        updatedAt: new Date(),
      })
      .where(eq(vouchers.id, input.id));
    const after = await getVoucher(tx, input.id);
    await writeAudit(tx, {
      actor: input.actor,
      action: 'voucher.update',
      target: auditTarget(after),
      before,
      after,
    });
    return after;
  });
}

/** Deletes an unused voucher; a used one can only be deactivated (its redemptions are history). */
export async function deleteVoucher(
  ctx: AppContext,
  input: { id: string; actor: AuditActor },
): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    const [row] = await tx.db.select().from(vouchers).where(eq(vouchers.id, input.id)).for('update');
    if (!row) throw new AppError('VOUCHER_NOT_FOUND');
    const [used] = await tx.db
      .select({ value: count() })
      .from(voucherRedemptions)
      .where(eq(voucherRedemptions.voucherId, row.id));
    if ((used?.value ?? 0) > 0) throw new AppError('VOUCHER_USED');
    const before = await getVoucher(tx, row.id);
    await tx.db.delete(vouchers).where(eq(vouchers.id, row.id));
    await writeAudit(tx, { actor: input.actor, action: 'voucher.delete', target: auditTarget(row), before });
  });
}

/** Who used a voucher, newest first, with the state of the order it priced. */
export async function listVoucherRedemptions(
  ctx: AppContext,
  input: ListQuery & { voucherId: string },
  orderStatusOf: (orderIds: string[]) => Promise<Map<string, string>>,
) {
  await getVoucher(ctx, input.voucherId);
  const where = and(
    eq(voucherRedemptions.voucherId, input.voucherId),
    input.q ? ilike(users.username, likePattern(input.q)) : undefined,
  );
  const { limit, offset } = pageOf(input);
  const rows = await ctx.db
    .select({
      id: voucherRedemptions.id,
      userId: users.id,
      username: users.username,
      orderId: voucherRedemptions.orderId,
      createdAt: voucherRedemptions.createdAt,
    })
    .from(voucherRedemptions)
    .innerJoin(users, eq(users.id, voucherRedemptions.userId))
    .where(where)
    .orderBy(
      orderOf(
        input.sort,
        { createdAt: voucherRedemptions.createdAt, username: users.username },
        desc(voucherRedemptions.createdAt),
      ),
      desc(voucherRedemptions.id),
    )
    .limit(limit)
    .offset(offset);
  const [total] = await ctx.db
    .select({ value: count() })
    .from(voucherRedemptions)
    .innerJoin(users, eq(users.id, voucherRedemptions.userId))
    .where(where);
  const statuses = await orderStatusOf(rows.flatMap((row) => (row.orderId ? [row.orderId] : [])));
  return {
    data: rows.map((row) => ({
      id: row.id,
      user: { id: row.userId, username: row.username },
      orderId: row.orderId,
      orderStatus: row.orderId ? (statuses.get(row.orderId) ?? null) : null,
      createdAt: row.createdAt.toISOString(),
    })),
    total: total?.value ?? 0,
  };
}
