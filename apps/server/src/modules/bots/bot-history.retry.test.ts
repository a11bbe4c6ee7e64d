import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness.ts';
import { ManualClock } from '../../../test/helpers/manual-clock.ts';
import { newHwid } from '../../../test/helpers/realtime.ts';
import { ActivityRecorder } from './bots.history.ts';
import { botActivityMinutes } from './bots.table.ts';

/**
 * A history write the database refuses keeps its rows for the next flush: kept whole, the number of
 * reports behind each minute included (put back beside a newer report of the same minute, it counted
 * as one report).
 */
let server: TestServer;
const clock = new ManualClock(Date.parse('2026-11-28T10:00:30Z'));

beforeAll(async () => {
  server = await startTestServer({ clock });
});
afterAll(() => server.close());

describe('a refused history write', () => {
  it('is written at the next flush with every report it counted', async () => {
    const { ctx } = server;
    const owner = await server.createUser();
    const hwid = newHwid();
    const recorder = new ActivityRecorder(ctx);
    const delta = { gathered: 2, treasures: 0, kamas: 5, xp: 10 };
    for (let report = 0; report < 3; report += 1)
      recorder.record({ userId: owner.user.id, hwid, account: 'Miner', at: clock.now(), delta });

    await ctx.db.execute(
      sql.raw(`create or replace function refuse_history() returns trigger language plpgsql as $$
        begin raise exception 'historique refusé par le test'; end $$`),
    );
    await ctx.db.execute(
      sql.raw(`create trigger refuse_history before insert on bot_activity_minutes
        for each row execute function refuse_history()`),
    );
    try {
      // A report arrives while the refused write is in flight: the minute's rows meet again.
      const refused = recorder.flush();
      recorder.record({ userId: owner.user.id, hwid, account: 'Miner', at: clock.now(), delta });
      await refused;
    } finally {
      await ctx.db.execute(sql.raw('drop trigger refuse_history on bot_activity_minutes'));
    }
    await recorder.flush();

    const rows = await ctx.db
      .select()
      .from(botActivityMinutes)
      .where(and(eq(botActivityMinutes.hwid, hwid), eq(botActivityMinutes.account, 'Miner')));
    expect(rows.map(({ reports, gathered, kamas, xp }) => ({ reports, gathered, kamas, xp }))).toEqual([
      { reports: 4, gathered: 8, kamas: 20, xp: 40 },
    ]);
  });
});
