import { APP_NAME, PROVIDER_LABELS, type Receipt } from '@bot/contracts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../core/errors.ts';
import { getUserById } from '../users/index.ts';
import { findOrderById, getOwnOrder, toOrder } from './orders.service.ts';
import type { OrderRow } from './orders.table.ts';

/** The customer's receipt of their own order. */
export async function getReceipt(
  ctx: AppContext,
  input: { userId: string; orderId: string },
): Promise<Receipt> {
  return receiptOf(ctx, await getOwnOrder(ctx, input));
}

/** Staff's copy of any order's receipt: the very one its customer sees. */
export async function getPaymentReceipt(ctx: AppContext, orderId: string): Promise<Receipt> {
  const row = await findOrderById(ctx, orderId);
  if (!row) throw new AppError('ORDER_NOT_FOUND');
  return receiptOf(ctx, row);
}

/** Only money that was received has a receipt: paid orders, and refunded ones (showing the refund). */
async function receiptOf(ctx: AppContext, row: OrderRow): Promise<Receipt> {
  if (row.status !== 'paid' && row.status !== 'refunded') throw new AppError('RECEIPT_UNAVAILABLE');
  const customer = await getUserById(ctx, row.userId);
  const { seller } = ctx.config;
  return {
    order: toOrder(row),
    customer: { id: customer.id, username: customer.username, email: customer.email },
    seller: {
      name: seller.name ?? APP_NAME,
      url: ctx.config.publicUrl,
      address: seller.address ?? null,
      companyId: seller.companyId ?? null,
      vatNumber: seller.vatNumber ?? null,
    },
    tax: seller.vatRatePercent === undefined ? null : includedVat(row.amountCents, seller.vatRatePercent),
    paymentMethod: PROVIDER_LABELS[row.provider],
    issuedAt: new Date().toISOString(),
  };
}

/** The VAT inside a VAT-inclusive total, to the cent. */
function includedVat(totalCents: number, ratePercent: number): NonNullable<Receipt['tax']> {
  const netCents = Math.round(totalCents / (1 + ratePercent / 100));
  return { ratePercent, netCents, vatCents: totalCents - netCents };
}
