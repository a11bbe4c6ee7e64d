import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { newSecret } from '../../core/ids.ts';
import { hashPassword } from '../../core/passwords.ts';
import { StartupError } from '../../core/startup-errors.ts';
import { createUser } from './users.service.ts';
import { users } from './users.table.ts';

/**
 * Creates the first administrator from ADMIN_* when no administrator exists. Without
 * ADMIN_PASSWORD a strong password is generated and answered so main.ts prints it, once; never in
 * production (NODE_ENV=production, the image), where the console is a container log that outlives
 * the password's first use (docs/operations.md, "Secrets"): the start is refused instead.
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
  if (ctx.config.production && !ctx.config.admin.password)
    throw new StartupError(
      'Aucun administrateur dans la base et ni ADMIN_PASSWORD_FILE ni ADMIN_PASSWORD : en production, un mot de passe généré ne serait écrit que dans le journal du conteneur. Donnez le mot de passe du premier administrateur dans un fichier secret (ADMIN_PASSWORD_FILE), puis relancez.',
    );
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
