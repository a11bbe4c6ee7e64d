// The vouchers module's entry: what the rest of the server and the tests may use of it; its other
// files are its own (docs/architecture.md, "Modules and their entries").
export { vouchersRoutes } from './vouchers.routes.ts';
export {
  limitVoucherGuesses,
  previewVoucher,
  releaseVoucherRedemption,
  reserveVoucher,
  restoreVoucherRedemption,
} from './vouchers.service.ts';
export { voucherRedemptions, vouchers } from './vouchers.table.ts';
export { listVoucherRedemptions } from './vouchers-admin.service.ts';
