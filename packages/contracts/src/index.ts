export * from './admin.ts';
export * from './auth.ts';
export * from './bots.ts';
export * from './constants.ts';
export * from './errors.ts';
export * from './permissions.ts';
export * from './routes.ts';
export * from './settings.ts';

import { z } from 'zod';

// Validation messages in French, on the server and in the web app alike.
z.config(z.locales.fr());
