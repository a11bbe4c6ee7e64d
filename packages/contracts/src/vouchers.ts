import { z } from 'zod';
import { listQuery } from './admin.ts';
import { isoDateTime } from './dates.ts';

export const VOUCHER_KINDS = ['percent', 'fixed', 'gift'] as const;
export const voucherKindSchema = z.enum(VOUCHER_KINDS);
export type VoucherKind = z.infer<typeof voucherKindSchema>;

export const VOUCHER_KIND_LABELS: Record<VoucherKind, string> = {
  percent: 'Pourcentage',
  fixed: 'Montant fixe',
  gift: 'Cadeau (offre gratuite)',
};

/** Codes are compared upper-case; staff may type their own. */
export const voucherCodeSchema = z
  .string()
  .trim()
  .min(4, 'Code trop court (4 caractères minimum).')
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, 'Code invalide : lettres, chiffres, - et _.')
  .transform((code) => code.toUpperCase());

export const voucherSchema = z.object({
  id: z.string(),
  code: z.string(),
  kind: voucherKindSchema,
  percentOff: z.number().int().nullable(),
  amountOffCents: z.number().int().nullable(),
  packageId: z.string().nullable(),
  packageName: z.string().nullable(),
  maxRedemptions: z.number().int().nullable(),
  perCustomerLimit: z.number().int().nullable(),
  redemptionsCount: z.number().int(),
  startsAt: z.string().nullable(),
  endsAt: z.string().nullable(),
  active: z.boolean(),
  note: z.string(),
  createdAt: z.string(),
});
export type Voucher = z.infer<typeof voucherSchema>;

const voucherFields = {
  /** Absent: a code is generated (80 bits of entropy). */
  code: voucherCodeSchema.optional(),
  kind: voucherKindSchema,
  percentOff: z.number().int().min(1).max(100).nullable().optional(),
  amountOffCents: z.number().int().min(1).max(100_000_000).nullable().optional(),
  packageId: z.string().uuid('Identifiant invalide.').nullable().optional(),
  maxRedemptions: z.number().int().min(1).max(1_000_000).nullable().optional(),
  perCustomerLimit: z.number().int().min(1).max(1000).nullable().optional(),
  startsAt: isoDateTime().nullable().optional(),
  endsAt: isoDateTime().nullable().optional(),
  active: z.boolean().optional(),
  note: z.string().trim().max(500).optional(),
};

type VoucherShape = {
  kind?: VoucherKind;
  percentOff?: number | null;
  amountOffCents?: number | null;
  packageId?: string | null;
  startsAt?: string | null;
  endsAt?: string | null;
};

/** Rules across fields, shared by the server (on the merged voucher) and the admin form. */
export function voucherProblems(voucher: VoucherShape): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  if (voucher.kind === 'percent' && !voucher.percentOff)
    problems.push({ path: 'percentOff', message: 'Pourcentage requis (1 à 100).' });
  if (voucher.kind === 'fixed' && !voucher.amountOffCents)
    problems.push({ path: 'amountOffCents', message: 'Montant de la réduction requis.' });
  if (voucher.kind === 'gift' && !voucher.packageId)
    problems.push({ path: 'packageId', message: "Un bon cadeau doit désigner l'offre offerte." });
  if (voucher.startsAt && voucher.endsAt && new Date(voucher.startsAt) >= new Date(voucher.endsAt))
    problems.push({ path: 'endsAt', message: 'La fin doit suivre le début.' });
  return problems;
}

export const voucherInput = z.strictObject(voucherFields).superRefine((value, context) => {
  for (const problem of voucherProblems(value))
    context.addIssue({ code: 'custom', path: [problem.path], message: problem.message });
});
export type VoucherInput = z.input<typeof voucherInput>;

export const voucherUpdateInput = z.strictObject({
  percentOff: voucherFields.percentOff,
  amountOffCents: voucherFields.amountOffCents,
  packageId: voucherFields.packageId,
  maxRedemptions: voucherFields.maxRedemptions,
  perCustomerLimit: voucherFields.perCustomerLimit,
  startsAt: voucherFields.startsAt,
  endsAt: voucherFields.endsAt,
  active: voucherFields.active,
  note: voucherFields.note,
});
export type VoucherUpdateInput = z.infer<typeof voucherUpdateInput>;

export const voucherListQuery = listQuery.extend({
  kind: voucherKindSchema.optional(),
  active: z.enum(['true', 'false']).optional(),
});
export type VoucherListQuery = z.infer<typeof voucherListQuery>;
export const voucherListAnswer = z.object({ data: z.array(voucherSchema), total: z.number().int() });
export const voucherAnswer = z.object({ data: voucherSchema });

export const voucherRedemptionSchema = z.object({
  id: z.string(),
  user: z.object({ id: z.string(), username: z.string() }),
  orderId: z.string().nullable(),
  orderStatus: z.string().nullable(),
  createdAt: z.string(),
});
export const voucherRedemptionsAnswer = z.object({
  data: z.array(voucherRedemptionSchema),
  total: z.number().int(),
});

/** Customer: what a code would do to the prices (of one package, or of every package it applies to). */
export const voucherPreviewInput = z.strictObject({
  code: z.string().trim().min(1).max(64),
  packageId: z.string().uuid('Identifiant invalide.').optional(),
});
export const voucherPriceSchema = z.object({
  packageId: z.string(),
  priceCents: z.number().int(),
  discountCents: z.number().int(),
  amountCents: z.number().int(),
  currency: z.string(),
});
export type VoucherPrice = z.infer<typeof voucherPriceSchema>;
export const voucherPreviewAnswer = z.object({
  data: z.object({
    code: z.string(),
    kind: voucherKindSchema,
    /** The only package it applies to, if restricted. */
    packageId: z.string().nullable(),
    prices: z.array(voucherPriceSchema),
  }),
});
export type VoucherPreview = z.infer<typeof voucherPreviewAnswer>['data'];

/** Discount of a voucher on a price, never more than the price. */
export function discountOf(
  voucher: { kind: VoucherKind; percentOff: number | null; amountOffCents: number | null },
  priceCents: number,
): number {
  if (voucher.kind === 'gift') return priceCents;
  if (voucher.kind === 'percent')
    return Math.min(priceCents, Math.round((priceCents * (voucher.percentOff ?? 0)) / 100));
  return Math.min(priceCents, voucher.amountOffCents ?? 0);
}
