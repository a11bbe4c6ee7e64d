import { defineConfig } from 'drizzle-kit';

// Every domain owns its tables in `<domain>.table.ts`; migrations are generated from all of them.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/modules/**/*.table.ts',
  out: './drizzle',
});
