import type { BotAccount } from '@bot/contracts';

/** One report of a bot: its accounts in the state before it and in the report. */
export interface AccountsChange {
  userId: string;
  hwid: string;
  before: BotAccount[];
  after: BotAccount[];
  at: number;
}

/** Each reported account with the same account in the state before (undefined: a new account). */
export function forEachReportedAccount(
  change: AccountsChange,
  visit: (account: BotAccount, previous: BotAccount | undefined) => void,
): void {
  for (let index = 0; index < change.after.length; index += 1) {
    const account = change.after[index]!;
    visit(account, accountNamed(change.before, account.name, index));
  }
}

/**
 * Bots list their accounts in the same order report after report: the one at the same index is
 * checked first (a search otherwise). Thousands of reports a second take this path.
 */
function accountNamed(accounts: BotAccount[], name: string, index: number): BotAccount | undefined {
  const sameIndex = accounts[index];
  return sameIndex?.name === name ? sameIndex : accounts.find((account) => account.name === name);
}
