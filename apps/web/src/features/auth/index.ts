/** What the app and other features use of the session and of who the user is. */
export { fetchMeInfo, meKeys } from './api/me-info.ts';
export { fetchMyPermissions } from './api/me-permissions.ts';
export { signOut } from './session.ts';
