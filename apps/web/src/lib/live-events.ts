/**
 * Window events the sockets (and pages) fire for parts of the app that live outside any socket's
 * page: a tiny module, so that listening to them never pulls the socket client into the first load.
 */
export const LIVE_EVENTS = {
  /** The public settings changed (pushed by the hub, or saved on this page). */
  publicSettingsRefresh: 'public-settings:refresh',
  /** New in-app notifications for this user (pushed by the hub): the bell counts again. */
  notificationsRefresh: 'notifications:refresh',
} as const;
