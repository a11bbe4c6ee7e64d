/** The customer's orders (the payments page lists them). */
export { ordersQuery } from './api/marketplace.ts';
