import type { Permission, WebRoute } from '@bot/contracts';
import { HOME_AFTER_LOGIN } from '../../lib/constants.ts';

export type GuardOutcome =
  | { kind: 'allow' }
  /** `isInformation`: an expected state explained in neutral colours, not an error. */
  | { kind: 'redirect'; to: string; message?: string; isInformation?: boolean };
export type GuardStep = GuardOutcome | { kind: 'check'; permissions: Permission[] };

export const ACCESS_DENIED_MESSAGE = "Vous n'avez pas la permission d'accéder à cette page.";
const BOT_ACCESS_MESSAGE =
  '« Mon bot » demande une offre active donnant à la fois la récolte et la chasse au trésor : choisissez ci-dessous une offre qui donne les deux.';

/** The sign-in page, remembering where to come back to. */
export function loginRedirect(pathWithSearch: string): string {
  if (!pathWithSearch || pathWithSearch === '/') return '/login';
  return `/login?redirect=${encodeURIComponent(pathWithSearch)}`;
}

/** Only same-site paths are followed after sign-in (no `//evil.example`, no `https://…`). */
export function safeRedirectTarget(raw: string | null | undefined, fallback = HOME_AFTER_LOGIN): string {
  if (!raw?.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return fallback;
  if (raw === '/login' || raw.startsWith('/login?')) return fallback;
  return raw;
}

/**
 * Where a sign-in lands without an explicit target: staff who may enter the admin area (docs/specification.md
 * guards /admin with can_manageMap) land there, customers in their account.
 */
export function homeAfterLogin(session: {
  isAdministrator: boolean;
  permissions: readonly string[];
}): string {
  return session.isAdministrator || session.permissions.includes('can_manageMap')
    ? '/admin'
    : HOME_AFTER_LOGIN;
}

/**
 * First step of a route guard, before asking the server. 'account' and 'auth' both need a session;
 * pages with permissions then need `POST /auth/check-permission` (the server decides, not local state).
 */
export function decideBeforeCheck(
  route: Pick<WebRoute, 'guard' | 'permissions'>,
  session: { isConnected: boolean },
  pathWithSearch: string,
): GuardStep {
  if (route.guard === null) return { kind: 'allow' };
  if (!session.isConnected) return { kind: 'redirect', to: loginRedirect(pathWithSearch) };
  if (route.permissions.length === 0) return { kind: 'allow' };
  return { kind: 'check', permissions: [...route.permissions] };
}

/** Second step: the server's answer. Admin pages send refused users away from /admin. */
export function decideAfterCheck(route: Pick<WebRoute, 'layout'>, allowed: boolean): GuardOutcome {
  if (allowed) return { kind: 'allow' };
  if (route.layout === 'admin') return { kind: 'redirect', to: '/account', message: ACCESS_DENIED_MESSAGE };
  // Not an error: the customer has simply no package for this page yet.
  return { kind: 'redirect', to: '/account/marketplace', message: BOT_ACCESS_MESSAGE, isInformation: true };
}

/** Admin navigation shows only the pages the user's permissions open. */
export function canSeeRoute(
  route: Pick<WebRoute, 'permissions'>,
  permissions: readonly Permission[],
): boolean {
  return route.permissions.every((permission) => permissions.includes(permission));
}
