import type { BotStatus } from '@bot/contracts';

/**
 * While the bot is paused, a game account that was at work shows as paused: its last activity
 * (Banque, Récolte, Combat…) is not going on. One stopped or in error stays so.
 */
export function isShownPaused(status: BotStatus, paused: boolean | undefined): boolean {
  return paused === true && status !== 'stopped' && status !== 'error';
}

/** The label of a paused account, next to BOT_STATUS_LABELS. */
export const PAUSED_LABEL = 'En pause';
