/** The payments' totals, for the dashboard. */
export { fetchPaymentTotals } from './api/payments.ts';
