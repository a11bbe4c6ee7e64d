import type { AppContext } from './context.ts';
import type { SessionAuthority } from './core/guards.ts';
import { hasPermissions } from './modules/access/index.ts';
import { assertStaffSecondFactor, findSessionByToken } from './modules/auth/index.ts';
import { findBotSessionByToken } from './modules/bots/index.ts';

/**
 * What the route guards ask about a request's bearer, answered by the modules that know: the guards
 * sit below every module's routes and import none of them (docs/architecture.md, "Modules and their
 * entries"). Part of the wiring, like app.ts, which puts it on the app.
 */
export function sessionAuthorityOf(ctx: AppContext): SessionAuthority {
  return {
    findSession: (token, options) => findSessionByToken(ctx, token, options),
    hasPermissions: (userId, required) => hasPermissions(ctx, userId, required),
    assertStaffSecondFactor: (session) => assertStaffSecondFactor(ctx, session),
    findBotSession: (input) => findBotSessionByToken(ctx, input),
  };
}
