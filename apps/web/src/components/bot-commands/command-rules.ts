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

/** How long a pause or resume the bot ran speaks for its state, before its next report says it. */
export const RAN_SPEAKS_FOR_MS = 5_000;

/**
 * The bot's paused state as the one-click buttons should read it: a pause or resume on its way
 * holds both buttons (`isChanging`); one the bot ran moments ago gives the state its next report has
 * not carried yet (Pause stayed clickable for a second after "Exécutée", and was sent twice).
 */
export function pauseStateOf(
  commands: readonly BotCommand[] | undefined,
  reported: boolean | undefined,
  now = Date.now(),
): { paused: boolean | undefined; isChanging: boolean } {
  const latest = (commands ?? [])
    .filter((command) => command.kind === 'pause' || command.kind === 'resume')
    .reduce<BotCommand | undefined>(
      (newest, command) => (!newest || command.createdAt > newest.createdAt ? command : newest),
      undefined,
    );
  if (latest && WAITING_STATES.includes(latest.state)) return { paused: reported, isChanging: true };
  // Within the window either way: a browser clock far behind the server's must not pin the state.
  const age = latest ? now - Date.parse(latest.updatedAt) : Number.POSITIVE_INFINITY;
  const ranRecently = latest?.state === 'succeeded' && Math.abs(age) < RAN_SPEAKS_FOR_MS;
  return { paused: ranRecently ? latest.kind === 'pause' : reported, isChanging: false };
}
