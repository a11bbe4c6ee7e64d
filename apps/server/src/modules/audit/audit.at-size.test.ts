import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, startTestServer, type TestServer, type TestUser } from '../../../test/harness.ts';
import { newId } from '../../core/ids.ts';
import { auditLog } from './audit.table.ts';

// The trail filtered by actor and period as it works at size (docs/decisions/405): indexes on
// (actor, at, id), a total estimated above 10,000 matching entries.

let server: TestServer;
let call: ReturnType<typeof apiClient>;
let auditor: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  call = apiClient(server);
  auditor = await server.createUser({ permissions: ['can_manageAudit'] });
});
afterAll(() => server.close());

type Page = { data: { id: string; at: string }[]; total: number; totalIsEstimate?: boolean };
const page = (query: string) => call<Page>('GET', `/admin/audit?${query}`, undefined, auditor.token);

describe('filtered by actor and period', () => {
  const alice = newId();
  const bob = newId();
  const start = Date.parse('2026-03-01T00:00:00.000Z');
  const HOUR = 3_600_000;
  // 120 entries over 10 days: Alice_Staff (by id), bob (by id), and sign-in failures typed as
  // "alice_staff" (no actor id, the name only), in turn.
  const entries = Array.from({ length: 120 }, (_, i) => {
    const who = i % 3;
    return {
      id: newId(),
      at: new Date(start + i * 2 * HOUR),
      actorId: who === 0 ? alice : who === 1 ? bob : null,
      actorUsername: who === 0 ? 'Alice_Staff' : who === 1 ? 'bob' : 'alice_staff',
      action: who === 2 ? 'auth.login_failed' : 'user.ban',
    };
  });
  const from = new Date(start + 50 * HOUR);
  const to = new Date(start + 146 * HOUR);
  const inPeriod = (entry: (typeof entries)[number]) => entry.at >= from && entry.at <= to;
  /** Newest first, as the list answers. */
  const expected = (keep: (entry: (typeof entries)[number]) => boolean) =>
    entries
      .filter((entry) => keep(entry) && inPeriod(entry))
      .sort((a, b) => b.at.getTime() - a.at.getTime())
      .map((entry) => entry.id);

  beforeAll(async () => {
    await server.ctx.db.insert(auditLog).values(entries);
  });

  /** Every page of a filter, 7 entries at a time. */
  async function everyPage(filter: string): Promise<{ ids: string[]; totals: number[] }> {
    const ids: string[] = [];
    const totals: number[] = [];
    for (let n = 1; ; n += 1) {
      const answer = await page(
        `${filter}&from=${from.toISOString()}&to=${to.toISOString()}&pageSize=7&page=${n}`,
      );
      expect(answer.status).toBe(200);
      expect(answer.body).not.toHaveProperty('totalIsEstimate');
      ids.push(...answer.body.data.map((entry) => entry.id));
      totals.push(answer.body.total);
      if (answer.body.data.length < 7) return { ids, totals };
    }
  }

  it('by name, whatever its case: exactly the entries of that name in the period, newest first', async () => {
    const want = expected((entry) => entry.actorUsername.toLowerCase() === 'alice_staff');
    expect(want.length).toBeGreaterThan(20);
    const { ids, totals } = await everyPage('actor=ALICE_staff');
    expect(ids).toEqual(want);
    expect(new Set(totals)).toEqual(new Set([want.length]));
  });

  it('by id: only the entries that id wrote', async () => {
    const { ids, totals } = await everyPage(`actor=${alice}`);
    expect(ids).toEqual(expected((entry) => entry.actorId === alice));
    expect(totals[0]).toBe(ids.length);
  });

  it('the period is inclusive at both ends', async () => {
    const { ids } = await everyPage('actor=bob');
    const want = expected((entry) => entry.actorId === bob);
    expect(ids).toEqual(want);
    // 50 h and 146 h after the start are entries 25 and 73: both by bob (i % 3 === 1).
    expect(ids).toContain(entries[25]!.id);
    expect(ids).toContain(entries[73]!.id);
  });
});

describe('totals', () => {
  beforeAll(async () => {
    await server.ctx.db.execute(sql`
      insert into audit_log (id, at, actor_username, action)
      select gen_random_uuid(), now() - n * interval '1 minute', 'bulk_' || (n % 4), 'test.bulk'
      from generate_series(1, 10500) as n`);
    await server.ctx.db.execute(sql`analyze audit_log`);
  });

  it('are the planner estimate above 10,000 entries, flagged; exact below and on a last page', async () => {
    const everything = await page('pageSize=10');
    expect(everything.body.totalIsEstimate).toBe(true);
    expect(everything.body.total).toBeGreaterThan(10_000);
    expect(everything.body.total).toBeLessThan(50_000);

    const oneActor = await page('actor=bulk_1&pageSize=10');
    expect(oneActor.body.total).toBe(2625);
    expect(oneActor.body).not.toHaveProperty('totalIsEstimate');

    const last = await page('action=test.bulk&pageSize=100&page=105');
    expect(last.body.data).toHaveLength(100);
    expect(last.body.totalIsEstimate).toBe(true);
    const after = await page('action=test.bulk&pageSize=200&page=53');
    expect(after.body.data).toHaveLength(100);
    expect(after.body.total).toBe(10_500);
    expect(after.body).not.toHaveProperty('totalIsEstimate');
  });
});
