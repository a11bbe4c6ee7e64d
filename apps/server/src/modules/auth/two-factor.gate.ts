import type { AppContext } from '../../context.ts';
import { AppError } from '../../core/errors.ts';
import type { AuthenticatedSession } from '../../core/guards.ts';
import { getSettings } from '../settings/index.ts';

/**
 * The admin area's gate (HTTP guards and staff sockets): with `staffTwoFactorRequired` on, staff
 * power needs two-factor turned on. A session that got this far with it on has given its code.
 */
export async function lacksRequiredSecondFactor(
  ctx: AppContext,
  session: Pick<AuthenticatedSession, 'twoFactorEnabled'>,
): Promise<boolean> {
  return !session.twoFactorEnabled && (await getSettings(ctx)).staffTwoFactorRequired;
}

export async function assertStaffSecondFactor(
  ctx: AppContext,
  session: Pick<AuthenticatedSession, 'twoFactorEnabled'>,
): Promise<void> {
  if (await lacksRequiredSecondFactor(ctx, session)) throw new AppError('TWO_FACTOR_ENROLLMENT_REQUIRED');
}
