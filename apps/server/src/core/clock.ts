/**
 * The node's clock: what groups time into minutes and hours reads it (the dashboard's hourly
 * windows, the bot history's minutes), so a test can stand one second before a minute or an hour
 * turns (`test/helpers/manual-clock.ts`; docs/architecture.md, "The clock").
 */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
