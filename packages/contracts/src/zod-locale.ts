import { z } from 'zod';

/**
 * zod's own validation messages in French. Imported for its effect (`import '@bot/contracts/zod-locale'`)
 * by the server and by the web forms that validate with zod, and kept out of `index.ts` so that
 * importing a constant from the contracts does not pull zod into the public pages (docs/decisions/103).
 */
z.config(z.locales.fr());
