import type { BotAccount, BotHistoryPoint } from '@bot/contracts';

// Declared here rather than in the bots module so that `context.ts` imports no module (decision 010).

/** One report of a bot: its accounts in the state before it and in the report. */
export interface AccountsChange {
  userId: string;
  hwid: string;
  before: BotAccount[];
  after: BotAccount[];
  at: number;
}

/**
 * The bots' per-minute activity not written yet (`ctx.activity`): the bots module's
 * `ActivityRecorder`, fed by the real-time hub with each report (decision 013).
 */
export interface BotActivity {
  /** Adds one report's stat deltas to its accounts' current minute. */
  recordReport(change: AccountsChange): void;
  /** Rows not yet written, for one bot. */
  pendingFor(userId: string, hwid: string): BotHistoryPoint[];
  /** Writes every buffered row (shutdown). */
  flush(): Promise<void>;
  /** The periodic write: finished minutes only. */
  readonly writeFinished: () => Promise<void>;
}
