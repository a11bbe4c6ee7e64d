import type { BotAccount } from '@bot/contracts';
import type { AccountsChange } from '../../core/bot-activity.ts';

/**
 * Each reported account with the first account of the same name in the state before (undefined: a
 * new account), found by plain loops: thousands of reports a second take this path.
 */
export function forEachReportedAccount(
  change: AccountsChange,
  visit: (account: BotAccount, previous: BotAccount | undefined) => void,
): void {
  for (const account of change.after) visit(account, accountNamed(change.before, account.name));
}

function accountNamed(accounts: BotAccount[], name: string): BotAccount | undefined {
  for (const account of accounts) if (account.name === name) return account;
  return undefined;
}
