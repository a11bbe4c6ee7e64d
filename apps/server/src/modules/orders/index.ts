// The orders module's entry: what the rest of the server and the tests may use of it; its other
// files are its own (docs/architecture.md, "Modules and their entries").
export { ordersRoutes } from './orders.routes.ts';
export {
  closeOrder,
  countWhitelistSlots,
  createOrder,
  expireStaleOrders,
  fulfilOrder,
  getOwnOrder,
  listMyOrders,
  listSubscriptions,
  toOrder,
} from './orders.service.ts';
export { type OrderRow, orders } from './orders.table.ts';
export { markOrderRefunded } from './payments-admin.service.ts';
