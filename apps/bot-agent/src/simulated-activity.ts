import { BOT_STATUS_LABELS, type BotReport } from '@bot/contracts';
import type { BotClient } from './client.ts';

/**
 * What a simulated agent writes to its log ("Journal du bot", decision 209): each account that
 * changed activity, where it is; a stopped account is a warning.
 */
export function logActivity(client: BotClient, report: BotReport, previous: BotReport | undefined): void {
  for (const account of report.accounts) {
    const before = previous?.accounts.find((other) => other.name === account.name);
    if (before?.status === account.status) continue;
    const { x, y } = account.position;
    const line = `${account.name} : ${BOT_STATUS_LABELS[account.status].toLowerCase()} en [${x}, ${y}]`;
    if (account.status === 'stopped') client.log.warn(line);
    else client.log.info(line);
  }
}
