import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { newSecret } from '../../core/ids.ts';
import { hashPassword } from '../../core/passwords.ts';
import { createUser } from './users.service.ts';
import { users } from './users.table.ts';

/**
 * Creates the first administrator from ADMIN_* when no administrator exists. Without
 * ADMIN_PASSWORD a strong password is generated and answered so main.ts prints it, once.
 */
export async function ensureFirstAdministrator(
  ctx: AppContext,
): Promise<{ username: string; password: string | null } | null> {
  const [existing] = await ctx.db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.isAdministrator, true))
    .limit(1);
  if (existing) return null;
  const { username, email } = ctx.config.admin;
  const password = ctx.config.admin.password ?? newSecret(18);
  await createUser(ctx, {
    username,
    email,
    passwordHash: await hashPassword(password),
    isAdministrator: true,
    activatedAt: new Date(),
  });
  return { username, password: ctx.config.admin.password ? null : password };
}
