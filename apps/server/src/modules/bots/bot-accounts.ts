import type { BotAccount } from '@bot/contracts';

/**
 * The account of that name in a bot's previous report. Bots list their accounts in the same order
 * report after report: the one at the same index is checked first (a search otherwise).
 */
export function accountNamed(accounts: BotAccount[], name: string, index: number): BotAccount | undefined {
  const sameIndex = accounts[index];
  return sameIndex?.name === name ? sameIndex : accounts.find((account) => account.name === name);
}
