import { randomInt } from 'node:crypto';
import { discountOf, type VoucherPreview } from '@bot/contracts';
import { and, count, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { rateLimitAddress } from '../../core/client-address.ts';
import { AppError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { listActivePackages } from '../catalog/index.ts';
import { type VoucherRow, voucherRedemptions, vouchers } from './vouchers.table.ts';

/** Crockford base32: no I, L, O, U, so codes read aloud and typed by hand survive. */
const CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** 16 symbols of 5 bits: 80 bits of entropy, far beyond what rate-limited guessing can reach. */
const GENERATED_CODE_LENGTH = 16;

export function generateVoucherCode(): string {
  let code = '';
  for (let i = 0; i < GENERATED_CODE_LENGTH; i += 1) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}

const normalizeVoucherCode = (code: string): string => code.trim().toUpperCase();

async function findVoucherByCode(ctx: AppContext, code: string): Promise<VoucherRow | undefined> {
  const [row] = await ctx.db
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
  await ctx.limiter.hit('voucherGuess', `ip:${rateLimitAddress(input.ip)}`);
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

async function countCustomerRedemptions(ctx: AppContext, voucherId: string, userId: string): Promise<number> {
  const [row] = await ctx.db
    .select({ value: count() })
    .from(voucherRedemptions)
    .where(and(eq(voucherRedemptions.voucherId, voucherId), eq(voucherRedemptions.userId, userId)));
  return row?.value ?? 0;
}

/** Uses of a voucher held by the given orders (a customer's pending checkout). */
async function countUsesHeldBy(
  ctx: AppContext,
  voucherId: string,
  orderIds: readonly string[],
): Promise<number> {
  if (orderIds.length === 0) return 0;
  const [row] = await ctx.db
    .select({ value: count() })
    .from(voucherRedemptions)
    .where(
      and(eq(voucherRedemptions.voucherId, voucherId), inArray(voucherRedemptions.orderId, [...orderIds])),
    );
  return row?.value ?? 0;
}

/**
 * What a code does to the prices, without using it. Rate limited like a redemption. The uses held
 * by `releasableOrderIds` (the customer's pending checkout, given back when they buy again) count
 * as free: leaving a checkout never makes one's own code look used.
 */
export async function previewVoucher(
  ctx: AppContext,
  input: {
    userId: string;
    ip: string;
    code: string;
    packageId?: string;
    releasableOrderIds: readonly string[];
  },
): Promise<VoucherPreview> {
  await limitVoucherGuesses(ctx, input);
  const voucher = assertVoucherApplies(
    await findVoucherByCode(ctx, input.code),
    input.packageId ?? null,
    new Date(),
  );
  const held = await countUsesHeldBy(ctx, voucher.id, input.releasableOrderIds);
  if (voucher.maxRedemptions !== null && voucher.redemptionsCount - held >= voucher.maxRedemptions)
    throw new AppError('VOUCHER_EXHAUSTED');
  if (
    voucher.perCustomerLimit !== null &&
    (await countCustomerRedemptions(ctx, voucher.id, input.userId)) - held >= voucher.perCustomerLimit
  )
    throw new AppError('VOUCHER_CUSTOMER_LIMIT');
  const onSale = await listActivePackages(ctx);
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
  ctx: AppContext,
  input: { code: string; userId: string; packageId: string; orderId: string },
): Promise<VoucherRow> {
  const now = new Date();
  const found = assertVoucherApplies(await findVoucherByCode(ctx, input.code), input.packageId, now);
  const [voucher] = await ctx.db
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
    const used = await countCustomerRedemptions(ctx, voucher.id, input.userId);
    if (used >= voucher.perCustomerLimit) throw new AppError('VOUCHER_CUSTOMER_LIMIT');
  }
  await ctx.db
    .insert(voucherRedemptions)
    .values({ id: newId(), voucherId: voucher.id, userId: input.userId, orderId: input.orderId });
  return voucher;
}

/** Gives back the use an unpaid order took (failed or expired checkout). */
export async function releaseVoucherRedemption(ctx: AppContext, input: { orderId: string }): Promise<void> {
  const removed = await ctx.db
    .delete(voucherRedemptions)
    .where(eq(voucherRedemptions.orderId, input.orderId))
    .returning({ voucherId: voucherRedemptions.voucherId });
  for (const { voucherId } of removed) {
    await ctx.db
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
  ctx: AppContext,
  input: { orderId: string; voucherId: string; userId: string },
): Promise<void> {
  const inserted = await ctx.db
    .insert(voucherRedemptions)
    .values({ id: newId(), voucherId: input.voucherId, userId: input.userId, orderId: input.orderId })
    .onConflictDoNothing()
    .returning({ id: voucherRedemptions.id });
  if (inserted.length > 0) {
    await ctx.db
      .update(vouchers)
      .set({ redemptionsCount: sql`${vouchers.redemptionsCount} + 1` })
      .where(eq(vouchers.id, input.voucherId));
  }
}
