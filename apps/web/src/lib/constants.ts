/** Web-only constants; the specification's numbers come from @bot/contracts (docs/specification.md §7). */
export {
  APP_NAME,
  AUTH_STORAGE_KEY,
  BREAKPOINTS,
  MOBILE_BREAKPOINT,
  RELOAD_GUARD_MS,
  TOAST_AUTO_CLOSE_MS,
  TOAST_AUTO_CLOSE_SECOND_REGISTRATION_MS,
  TOAST_COLLAPSE_MS,
  TOAST_DEBOUNCE_MS,
  TOAST_POSITION,
  TOAST_THEME,
} from '@bot/contracts';

/** Used only when /config.json cannot be read (e.g. `vite dev` without a server). */
export const DEFAULT_BUILD_CHECK_INTERVAL_MS = 60_000;

/** sessionStorage key holding the time of the last automatic reload. */
export const RELOAD_GUARD_STORAGE_KEY = 'reload-guard-at';

/** Where a signed-in user lands when no redirect target is given. */
export const HOME_AFTER_LOGIN = '/account';
