import type { BotCommand, BotCommandState, BotStatus } from '@bot/contracts';

/** States in which a command still waits for the bot (it may change without anyone acting). */
export const WAITING_STATES: readonly BotCommandState[] = ['queued', 'sent', 'acknowledged'];
/** How often a page without a socket reads the list again while a command waits. */
export const WAITING_REFRESH_MS = 500;

/** A page without a socket reads the list again while one of its commands waits; otherwise never. */
export function refreshInterval(live: boolean, commands: readonly BotCommand[] | undefined): number | false {
  return !live && commands?.some((command) => WAITING_STATES.includes(command.state))
    ? WAITING_REFRESH_MS
    : false;
}

/**
 * Whether the reader may cancel a command: only one the bot has not been handed yet, and an owner
 * not one sent by staff (the server refuses it).
 */
export function canCancel(command: BotCommand, ownerView: boolean): boolean {
  return command.state === 'queued' && !(ownerView && command.issuer.type === 'staff');
}

/**
 * Whether a one-click command makes sense in the bot's state: no pause while paused, no resume while
 * running. `paused` undefined: the state is unknown, both are offered.
 */
export function fitsState(kind: 'pause' | 'resume' | 'restart', paused: boolean | undefined): boolean {
  if (paused === undefined) return true;
  if (kind === 'pause') return !paused;
  if (kind === 'resume') return paused;
  return true;
}

/** A game account already stopped is not stopped again. */
export function canStopAccount(status: BotStatus | undefined): boolean {
  return status !== 'stopped';
}
