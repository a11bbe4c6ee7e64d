import { randomInt } from 'node:crypto';
import {
  discountOf,
  type Voucher,
  type VoucherListQuery,
  type VoucherPreview,
  type VoucherUpdateInput,
  type voucherInput,
  voucherProblems,
} from '@bot/contracts';
import { and, count, desc, eq, ilike, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { likePattern, orderOf, pageOf } from '../../core/admin-list.ts';
import type { AppContext } from '../../core/context.ts';
import { AppError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import type { DbOrTx } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { type AuditActor, writeAudit } from '../audit/audit.service.ts';
import { findPackageById, listActivePackages } from '../catalog/catalog.service.ts';
import { packages } from '../catalog/catalog.table.ts';
import { users } from '../users/users.table.ts';
import { type VoucherRow, voucherRedemptions, vouchers } from './vouchers.table.ts';

/** Crockford base32: no I, L, O, U, so codes read aloud and typed by hand survive. */
const CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** 16 symbols of 5 bits: 80 bits of entropy, far beyond what rate-limited guessing can reach. */
const GENERATED_CODE_LENGTH = 16;

function generateVoucherCode(): string {
  let code = '';
  for (let i = 0; i < GENERATED_CODE_LENGTH; i += 1) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}

const normalizeVoucherCode = (code: string): string => code.trim().toUpperCase();

async function findVoucherByCode(db: DbOrTx, code: string): Promise<VoucherRow | undefined> {
  const [row] = await db
    .select()
    .from(vouchers)
    .where(sql`upper(${vouchers.code}) = ${normalizeVoucherCode(code)}`);
  return row;
}

/**
 * Counts one code attempt per user and per IP before any lookup, so a valid code and a wrong one
 * cost the same and the answer never tells a guesser more once the limit is reached.
 */
export async function limitVoucherGuesses(
  ctx: AppContext,
  input: { userId: string; ip: string },
): Promise<void> {
  await ctx.limiter.hit('voucherGuess', `user:${input.userId}`);
  await ctx.limiter.hit('voucherGuess', `ip:${input.ip}`);
}

/** Throws the reason a voucher cannot price this package now (not counting its limits). */
function assertVoucherApplies(
  voucher: VoucherRow | undefined,
  packageId: string | null,
  now: Date,
): VoucherRow {
  if (!voucher?.active) throw new AppError('VOUCHER_INVALID');
  if (voucher.startsAt && voucher.startsAt > now) throw new AppError('VOUCHER_NOT_STARTED');
  if (voucher.endsAt && voucher.endsAt <= now) throw new AppError('VOUCHER_EXPIRED');
  if (packageId && voucher.packageId && voucher.packageId !== packageId)
    throw new AppError('VOUCHER_NOT_APPLICABLE');
  return voucher;
}

async function countCustomerRedemptions(db: DbOrTx, voucherId: string, userId: string): Promise<number> {
  const [row] = await db
    .select({ value: count() })
    .from(voucherRedemptions)
    .where(and(eq(voucherRedemptions.voucherId, voucherId), eq(voucherRedemptions.userId, userId)));
  return row?.value ?? 0;
}

/** What a code does to the prices, without using it. Rate limited like a redemption. */
export async function previewVoucher(
  ctx: AppContext,
  input: { userId: string; ip: string; code: string; packageId?: string },
): Promise<VoucherPreview> {
  await limitVoucherGuesses(ctx, input);
  const voucher = assertVoucherApplies(
    await findVoucherByCode(ctx.db, input.code),
    input.packageId ?? null,
    new Date(),
  );
  if (voucher.maxRedemptions !== null && voucher.redemptionsCount >= voucher.maxRedemptions)
    throw new AppError('VOUCHER_EXHAUSTED');
  if (
    voucher.perCustomerLimit !== null &&
    (await countCustomerRedemptions(ctx.db, voucher.id, input.userId)) >= voucher.perCustomerLimit
  )
    throw new AppError('VOUCHER_CUSTOMER_LIMIT');
  const onSale = await listActivePackages(ctx.db);
  const targets = onSale.filter(
    (pkg) =>
      (!input.packageId || pkg.id === input.packageId) &&
      (!voucher.packageId || pkg.id === voucher.packageId),
  );
  if (input.packageId && targets.length === 0) throw new AppError('PACKAGE_NOT_AVAILABLE');
  return {
    code: voucher.code,
    kind: voucher.kind,
    packageId: voucher.packageId,
    prices: targets.map((pkg) => {
      const discountCents = discountOf(voucher, pkg.priceCents);
      return {
        packageId: pkg.id,
        priceCents: pkg.priceCents,
        discountCents,
        amountCents: pkg.priceCents - discountCents,
        currency: pkg.currency,
      };
    }),
  };
}

/**
 * Uses a voucher once for an order, inside the caller's transaction. The conditional increment
 * locks the voucher row until commit, so concurrent redemptions of one voucher queue behind it: the
 * limit holds, and the per-customer count read after it sees every committed use (ADR 302).
 */
export async function reserveVoucher(
  tx: DbOrTx,
  input: { code: string; userId: string; packageId: string; orderId: string },
): Promise<VoucherRow> {
  const now = new Date();
  const found = assertVoucherApplies(await findVoucherByCode(tx, input.code), input.packageId, now);
  const [voucher] = await tx
    .update(vouchers)
    .set({ redemptionsCount: sql`${vouchers.redemptionsCount} + 1` })
    .where(
      and(
        eq(vouchers.id, found.id),
        eq(vouchers.active, true),
        or(isNull(vouchers.maxRedemptions), lt(vouchers.redemptionsCount, vouchers.maxRedemptions)),
      ),
    )
    .returning();
  if (!voucher) throw new AppError('VOUCHER_EXHAUSTED');
  if (voucher.perCustomerLimit !== null) {
    const used = await countCustomerRedemptions(tx, voucher.id, input.userId);
    if (used >= voucher.perCustomerLimit) throw new AppError('VOUCHER_CUSTOMER_LIMIT');
  }
  await tx
    .insert(voucherRedemptions)
    .values({ id: newId(), voucherId: voucher.id, userId: input.userId, orderId: input.orderId });
  return voucher;
}

/** Gives back the use an unpaid order took (failed or expired checkout). */
export async function releaseVoucherRedemption(tx: DbOrTx, input: { orderId: string }): Promise<void> {
  const removed = await tx
    .delete(voucherRedemptions)
    .where(eq(voucherRedemptions.orderId, input.orderId))
    .returning({ voucherId: voucherRedemptions.voucherId });
  for (const { voucherId } of removed) {
    await tx
      .update(vouchers)
      .set({ redemptionsCount: sql`greatest(${vouchers.redemptionsCount} - 1, 0)` })
      .where(eq(vouchers.id, voucherId));
  }
}

/**
 * Takes the use back for an order paid after it had expired (the provider confirmed the money):
 * counted even past the limit, since the customer has paid the discounted price.
 */
export async function restoreVoucherRedemption(
  tx: DbOrTx,
  input: { orderId: string; voucherId: string; userId: string },
): Promise<void> {
  const inserted = await tx
    .insert(voucherRedemptions)
    .values({ id: newId(), voucherId: input.voucherId, userId: input.userId, orderId: input.orderId })
    .onConflictDoNothing()
    .returning({ id: voucherRedemptions.id });
  if (inserted.length > 0) {
    await tx
      .update(vouchers)
      .set({ redemptionsCount: sql`${vouchers.redemptionsCount} + 1` })
      .where(eq(vouchers.id, input.voucherId));
  }
}

// ---------------------------------------------------------------------------------------------
// Staff

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
  db: DbOrTx,
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
  const rows = await db
    .select(voucherColumns)
    .from(vouchers)
    .leftJoin(packages, eq(packages.id, vouchers.packageId))
    .where(where)
    .orderBy(order, desc(vouchers.id))
    .limit(limit)
    .offset(offset);
  const [total] = await db.select({ value: count() }).from(vouchers).where(where);
  return { data: rows.map(toVoucher), total: total?.value ?? 0 };
}

export async function getVoucher(db: DbOrTx, id: string): Promise<Voucher> {
  const [row] = await db
    .select(voucherColumns)
    .from(vouchers)
    .leftJoin(packages, eq(packages.id, vouchers.packageId))
    .where(eq(vouchers.id, id));
  if (!row) throw new AppError('NOT_FOUND', { message: 'Bon introuvable.' });
  return toVoucher(row);
}

async function assertPackageExists(db: DbOrTx, packageId: string | null | undefined): Promise<void> {
  if (packageId && !(await findPackageById(db, packageId)))
    throw new AppError('VALIDATION_ERROR', { message: "L'offre choisie n'existe pas." });
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
  await assertPackageExists(ctx.db, data.packageId);
  const id = newId();
  try {
    await ctx.db.transaction(async (tx) => {
      await tx.insert(vouchers).values({
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
  return getVoucher(ctx.db, id);
}

/** Edits a voucher's terms; its code and kind stay (they are what customers were given). */
export async function updateVoucher(
  ctx: AppContext,
  input: { id: string; data: VoucherUpdateInput; actor: AuditActor },
): Promise<Voucher> {
  const { data } = input;
  await assertPackageExists(ctx.db, data.packageId);
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx.select().from(vouchers).where(eq(vouchers.id, input.id)).for('update');
    if (!row) throw new AppError('NOT_FOUND', { message: 'Bon introuvable.' });
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
    if (problems.length > 0)
      throw new AppError('VALIDATION_ERROR', { message: problems[0]?.message, details: problems });
    await tx
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
  await ctx.db.transaction(async (tx) => {
    const [row] = await tx.select().from(vouchers).where(eq(vouchers.id, input.id)).for('update');
    if (!row) throw new AppError('NOT_FOUND', { message: 'Bon introuvable.' });
    const [used] = await tx
      .select({ value: count() })
      .from(voucherRedemptions)
      .where(eq(voucherRedemptions.voucherId, row.id));
    if ((used?.value ?? 0) > 0)
      throw new AppError('CONFLICT', {
        message: 'Ce bon a déjà été utilisé : désactivez-le plutôt que de le supprimer.',
      });
    const before = await getVoucher(tx, row.id);
    await tx.delete(vouchers).where(eq(vouchers.id, row.id));
    await writeAudit(tx, { actor: input.actor, action: 'voucher.delete', target: auditTarget(row), before });
  });
}

/** Who used a voucher, newest first, with the state of the order it priced. */
export async function listVoucherRedemptions(
  db: DbOrTx,
  input: { voucherId: string; page: number; pageSize: number },
  orderStatusOf: (orderIds: string[]) => Promise<Map<string, string>>,
) {
  await getVoucher(db, input.voucherId);
  const rows = await db
    .select({
      id: voucherRedemptions.id,
      userId: users.id,
      username: users.username,
      orderId: voucherRedemptions.orderId,
      createdAt: voucherRedemptions.createdAt,
    })
    .from(voucherRedemptions)
    .innerJoin(users, eq(users.id, voucherRedemptions.userId))
    .where(eq(voucherRedemptions.voucherId, input.voucherId))
    .orderBy(desc(voucherRedemptions.createdAt), desc(voucherRedemptions.id))
    .limit(input.pageSize)
    .offset((input.page - 1) * input.pageSize);
  const [total] = await db
    .select({ value: count() })
    .from(voucherRedemptions)
    .where(eq(voucherRedemptions.voucherId, input.voucherId));
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
