/** Timing helpers of the back-office benchmark (run.ts). */
import http from 'node:http';
import { stringify } from 'csv-stringify/sync';
import { type SQL, sql } from 'drizzle-orm';
import { csvLines } from '../../apps/server/src/core/admin-list.ts';
import type { Db } from '../../apps/server/src/db/client.ts';
import { userGrants } from '../../apps/server/src/modules/access/index.ts';
import { roles, userRoles } from '../../apps/server/src/modules/roles/index.ts';
import { users } from '../../apps/server/src/modules/users/index.ts';
import { freePort, percentile } from '../shared.ts';

export interface Spread {
  p50: number;
  p95: number;
  samples: number;
}

export function spreadOf(samples: number[]): Spread {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), samples: sorted.length };
}

export async function timed(task: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await task();
  return performance.now() - start;
}

export interface Download {
  firstByteMs: number;
  totalMs: number;
  rows: number;
  rowsPerSecond: number;
  /** Peak heap minus the heap after a GC (client and server share the process: indicative). */
  heapMb: number;
}

const heapMb = () => process.memoryUsage().heapUsed / 1_048_576;

/** Downloads a CSV file, counting its lines as they arrive. */
export async function download(url: string, headers: Record<string, string>): Promise<Download> {
  (globalThis as { gc?: () => void }).gc?.();
  const heapBefore = heapMb();
  let peak = heapBefore;
  const sampler = setInterval(() => {
    peak = Math.max(peak, heapMb());
  }, 20);
  const start = performance.now();
  // Identity on both sides: the comparison is streaming against one query, not compression.
  const response = await fetch(url, { headers: { ...headers, 'accept-encoding': 'identity' } });
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  const reader = response.body!.getReader();
  let firstByteMs = 0;
  let newlines = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!firstByteMs) firstByteMs = performance.now() - start;
    for (let at = value.indexOf(10); at !== -1; at = value.indexOf(10, at + 1)) newlines += 1;
  }
  const totalMs = performance.now() - start;
  clearInterval(sampler);
  const rows = newlines - 1;
  return { firstByteMs, totalMs, rows, rowsPerSecond: (rows / totalMs) * 1000, heapMb: peak - heapBefore };
}

interface ExportRow {
  id: string;
  username: string;
  email: string;
  activated_at: Date | null;
  banned_at: Date | null;
  ban_reason: string | null;
  roles: string | null;
  subscriptions: string | null;
  hwid: string | null;
  discord_id: string | null;
  created_at: Date;
}

const iso = (value: Date | string | null) => (value === null ? '' : new Date(value).toISOString());

/**
 * The usual first attempt at the user export, served by a bare node:http server: one SELECT of every
 * user, the whole CSV built in memory, then sent. `/full.csv`: the same columns as ours, roles and
 * active bot subscriptions aggregated in the same query (hash joins), CSV by csv-stringify/sync;
 * `/full-lines.csv`: the same, CSV by our formatter (csvLines); `/users.csv`: the users table alone
 * (issue 7's baseline; roles, subscriptions and presence left empty).
 */
export async function startOneQueryExport(db: Db): Promise<{ url: string; close: () => Promise<void> }> {
  const full = sql`
      select u.id, u.username, u.email, u.activated_at, u.banned_at, u.ban_reason, u.hwid,
             u.discord_id, u.created_at, r.roles, s.subscriptions
      from ${users} as u
      left join (select ur.user_id, string_agg(r.name, ' ' order by r.name) as roles
                 from ${userRoles} as ur join ${roles} as r on r.id = ur.role_id
                 group by ur.user_id) as r on r.user_id = u.id
      left join (select g.user_id,
                        string_agg(g.permission || ':' || coalesce(g.expires_at::text, 'sans fin'), ' ') as subscriptions
                 from ${userGrants} as g
                 where g.permission in ('can_useGathering', 'can_useTreasure')
                   and (g.expires_at is null or g.expires_at > now())
                 group by g.user_id) as s on s.user_id = u.id
      order by u.id`;
  const routes: Record<string, { query: SQL; lines: boolean }> = {
    '/full.csv': { query: full, lines: false },
    '/full-lines.csv': { query: full, lines: true },
    '/users.csv': {
      query: sql`
        select id, username, email, activated_at, banned_at, ban_reason, hwid, discord_id, created_at,
               null as roles, null as subscriptions
        from ${users} order by id`,
      lines: false,
    },
  };
  const server = http.createServer((request, response) => {
    void (async () => {
      const route = routes[request.url ?? ''];
      if (!route) throw new Error(`no ${request.url}`);
      const { rows } = (await db.execute(route.query)) as unknown as { rows: ExportRow[] };
      const cells = rows.map((row) => [
        row.id,
        row.username,
        row.email,
        row.activated_at ? 'oui' : 'non',
        iso(row.banned_at),
        row.ban_reason ?? '',
        row.roles ?? '',
        row.subscriptions ?? '',
        row.hwid ?? '',
        row.discord_id ?? '',
        'non',
        iso(row.created_at),
      ]);
      const header = [...Array(12).keys()].map(String);
      // Our formatter as the export uses it, 5,000 rows at a time (one 15 MB string built by
      // appending cell after cell costs more than the formatting).
      const parts = [csvLines([header])];
      if (route.lines)
        for (let i = 0; i < cells.length; i += 5000) parts.push(csvLines(cells.slice(i, i + 5000)));
      const csv = route.lines
        ? `\ufeff${parts.join('')}`
        : stringify(cells, { header: true, columns: header, bom: true });
      response.writeHead(200, { 'content-type': 'text/csv; charset=utf-8' });
      response.end(csv);
    })().catch((error: unknown) => {
      response.writeHead(500);
      response.end(String(error));
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
