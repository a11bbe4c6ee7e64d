/** Business constants of docs/specification.md §7, named after the spec's wording. */

/** The product's name, as people see it (page titles, mails, authenticator apps). */
export const APP_NAME = 'BotForge';

export const TOAST_AUTO_CLOSE_MS = 5000;
export const TOAST_AUTO_CLOSE_SECOND_REGISTRATION_MS = 1000;
export const TOAST_POSITION = 'top-right';
export const TOAST_THEME = 'light';
export const TOAST_COLLAPSE_MS = 300;
export const TOAST_DEBOUNCE_MS = 50;
export const TOAST_AUTOHIDE_MS = 5000;

export const RELOAD_GUARD_MS = 10_000;

export const SOCKET_RECONNECTION_DELAY_MS = 1000;
export const SOCKET_RECONNECTION_DELAY_MAX_MS = 5000;
export const SOCKET_RANDOMIZATION_FACTOR = 0.5;
export const SOCKET_TIMEOUT_MS = 20_000;
export const SOCKET_PATH = '/socket.io';

export const SCROLL_OFFSET = 120;
export const SCROLL_DURATION_MS = 400;
export const SCROLL_EASING = 'ease';

export const CAROUSEL_INTERVAL_MS = 5000;
export const CAROUSEL_SWIPE_THRESHOLD_PX = 40;

export const BREAKPOINTS = { xs: 0, sm: 600, md: 960, lg: 1280, xl: 1920, xxl: 2560 } as const;
export const MOBILE_BREAKPOINT = 'lg';

/** Local-storage key of the persisted auth state. */
export const AUTH_STORAGE_KEY = 'auth';

/**
 * Unexpired, unused activation and reset links one mailbox may hold (decision 914): past this the
 * mail is skipped with the same answer, so the pages say what holds either way.
 */
export const OUTSTANDING_LINKS_PER_MAILBOX = 3;

/** Username length bounds. */
export const USERNAME_MIN_LENGTH = 3;
export const USERNAME_MAX_LENGTH = 32;

/** Password length bounds (decided in docs/decisions). */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

/** Socket.IO client settings of docs/specification.md §5 and §7, shared by the web app and the bot agent. */
export const SOCKET_CLIENT_OPTIONS = {
  path: SOCKET_PATH,
  transports: ['websocket'] as ['websocket'],
  upgrade: false,
  reconnection: true,
  reconnectionDelay: SOCKET_RECONNECTION_DELAY_MS,
  reconnectionDelayMax: SOCKET_RECONNECTION_DELAY_MAX_MS,
  randomizationFactor: SOCKET_RANDOMIZATION_FACTOR,
  timeout: SOCKET_TIMEOUT_MS,
};
