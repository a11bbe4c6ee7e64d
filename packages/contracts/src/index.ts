export * from './admin.ts';
export * from './admin-users.ts';
export * from './audit.ts';
export * from './auth.ts';
export * from './bots.ts';
export * from './catalog.ts';
export * from './constants.ts';
export * from './errors.ts';
export * from './orders.ts';
export * from './permissions.ts';
export * from './roles.ts';
export * from './routes.ts';
export * from './settings.ts';
export * from './users-online.ts';
export * from './vouchers.ts';
export * from './whitelist.ts';
export * from './world.ts';

import { z } from 'zod';

// Validation messages in French, on the server and in the web app alike.
z.config(z.locales.fr());
