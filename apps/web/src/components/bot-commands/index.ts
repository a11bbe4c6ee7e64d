/** Remote commands to a bot (decision 208): one set of controls for owners and staff. */
export { BotCommandControls } from './bot-command-controls.tsx';
export { useRouteNames } from './route-names.ts';
export type { CommandAccount } from './stop-account-list.tsx';
