/**
 * The back-office data set at size (bench/back-office): `bench_*` users created over two years (staff
 * with roles, bot subscriptions, whitelisted game accounts, some pending or banned) and an audit trail
 * spread over a year, its actors and its actions. Set-based SQL (generate_series), so 100,000 users
 * and 1,000,000 entries take about a minute on PostgreSQL. Used by `npm run seed:bench` and by
 * `npm run bench:back-office` (without `--seeded`, on a fresh database of its own).
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { hashPassword } from '../../apps/server/src/core/passwords.ts';
import type { Db } from '../../apps/server/src/db/client.ts';

/** The seeded users (SQL condition): every name starts with `bench_`. */
export const BENCH_USERS = "username like 'bench\\_%'";
/** The first STAFF users are staff (role "Bench modération"); the first is an administrator. */
export const STAFF = 30;
export const BENCH_ADMIN = 'bench_staff01';
/** Audit entries per INSERT (progress, and bounded memory on PGlite). */
const CHUNK = 100_000;

const NAMES = (
  'alice bruno chloe david emma farid gael hugo ines jules karim lea malo nina oscar paul quentin ' +
  'rose sarah theo ugo victor wendy xavier yanis zoe arthur camille louise nathan'
).split(' ');
const DOMAINS = ['example.test', 'mail.test', 'courriel.test', 'jeu.test', 'exemple.test'];
const STAFF_ACTIONS = (
  'user.ban user.unban user.roles grant.create grant.update grant.delete user.hwid_reset ' +
  'user.activate whitelist.add user.discord'
).split(' ');
const USER_ACTIONS = 'auth.login auth.login auth.login auth.password_changed two_factor.enabled'.split(' ');

const list = (items: string[]) => `array[${items.map((item) => `'${item}'`).join(', ')}]`;

/** A UUID v7 (what newId() makes) for a timestamp: ids keep the rows' time order, as in production. */
const uuidV7 = (at: string, random: string) =>
  `(substr(lpad(to_hex((extract(epoch from ${at}) * 1000)::bigint), 12, '0'), 1, 8) || '-' ||
    substr(lpad(to_hex((extract(epoch from ${at}) * 1000)::bigint), 12, '0'), 9, 4) || '-7' ||
    substr(${random}, 1, 3) || '-' || substr('89ab', 1 + (get_byte(decode(${random}, 'hex'), 0) % 4), 1) ||
    substr(${random}, 4, 3) || '-' || substr(${random}, 7, 12))::uuid`;

/** Seeded users numbered by creation rank (n = 1 is the first), for the joins below. */
const NUMBERED = `(select id, username, created_at, row_number() over (order by created_at, id) as n
                   from users where ${BENCH_USERS})`;

/** Seeds `users` users and `audit` audit entries on a migrated database; `step` reports progress. */
export async function seedBackOffice(
  db: Db,
  input: { users: number; audit: number; step?: (what: string) => void },
): Promise<void> {
  const run = (query: string) => db.execute(sql.raw(query));
  const step = input.step ?? (() => {});
  await seedUsers(run, input.users);
  step(`${input.users} utilisateurs, leurs rôles, abonnements et listes blanches`);
  // 40% staff actions (STAFF actors, on user targets), 60% the users' own security events, over a year.
  for (let first = 1; first <= input.audit; first += CHUNK) {
    const last = Math.min(input.audit, first + CHUNK - 1);
    await run(auditInsert({ first, last, total: input.audit, users: input.users }));
    step(`${last} entrées d'audit`);
  }
}

async function seedUsers(run: (query: string) => Promise<unknown>, users: number): Promise<void> {
  const hash = (await hashPassword(randomBytes(18).toString('base64url'))).replaceAll("'", "''");
  // Created over the last two years, in creation order; one in seven has a capitalised name.
  await run(`
    insert into users (id, username, email, password_hash, discord_id, hwid, is_administrator,
                       activated_at, banned_at, ban_reason, created_at)
    select ${uuidV7('created', 'r')}, username, lower(username) || '@' || (${list(DOMAINS)})[1 + n % 5],
           '${hash}',
           case when n % 6 = 0 then (100000000000000000 + n * 7919)::text end,
           case when n % 3 = 0 then 'HWID-' || upper(substr(md5('hwid' || n), 1, 16)) end,
           n = 1,
           case when n % 20 <> 0 then created + interval '10 minutes' end,
           case when n % 200 = 7 then created + interval '30 days' end,
           case when n % 200 = 7 then 'Triche (jeu de données du benchmark)' end,
           created
    from (
      select n, md5(random()::text || n) as r,
             now() - interval '730 days' + n * (interval '730 days' / ${users}) as created,
             case when n <= ${STAFF} then 'bench_staff' || lpad(n::text, 2, '0')
                  when n % 7 = 0 then 'bench_' || initcap((${list(NAMES)})[1 + n % 30]) || n
                  else 'bench_' || (${list(NAMES)})[1 + n % 30] || n end as username
      from generate_series(1, ${users}) as n
    ) as s`);
  await run(`
    insert into roles (id, name, description) values
      (gen_random_uuid(), 'Bench modération', 'Staff du jeu de données du benchmark'),
      (gen_random_uuid(), 'Bench support', 'Support'),
      (gen_random_uuid(), 'Bench VIP', 'Clients fidèles')`);
  await run(`
    insert into role_permissions (role_id, permission)
    select id, unnest(case name when 'Bench modération' then array['can_manageUsers', 'can_manageAudit']
                                when 'Bench support' then array['can_manageUsers']
                                else array['can_useGathering'] end)
    from roles where name like 'Bench %'`);
  await run(`
    insert into user_roles (user_id, role_id)
    select u.id, r.id from ${NUMBERED} as u
    join roles as r on r.name = case when u.n <= ${STAFF} then 'Bench modération'
                                     when u.n % 20 = 0 then 'Bench support' else 'Bench VIP' end
    where u.n <= ${STAFF} or u.n % 10 = 0`);
  // One in five bought the gathering bot (some lapsed), one in twelve has treasure for good.
  await run(`
    insert into user_grants (id, user_id, permission, expires_at, source, created_at)
    select gen_random_uuid(), u.id, 'can_useGathering', now() + ((u.n % 60) - 10) * interval '1 day',
           'order', u.created_at
    from ${NUMBERED} as u where u.n % 5 = 0
    union all
    select gen_random_uuid(), u.id, 'can_useTreasure', null, 'manual', u.created_at
    from ${NUMBERED} as u where u.n % 12 = 0`);
  await run(`
    insert into whitelist_entries (id, user_id, name, created_at)
    select gen_random_uuid(), u.id, u.username || '-perso' || k, u.created_at
    from ${NUMBERED} as u, generate_series(1, 1 + (u.n % 3)::int) as k
    where u.n % 4 = 0`);
}

/** One INSERT of the audit entries numbered first..last (of total, spread over the last year). */
function auditInsert(input: { first: number; last: number; total: number; users: number }): string {
  return `
    insert into audit_log (id, at, actor_id, actor_username, action, target_type, target_id,
                           target_label, before, after, ip)
    with u as ${NUMBERED},
    g as (select n, md5(random()::text || n) as r,
                 now() - interval '365 days' + n * (interval '365 days' / ${input.total}) as at,
                 n % 10 < 4 as by_staff,
                 case when n % 10 < 4 then 1 + ((n / 10) * 7) % ${STAFF}
                      else 1 + (n * 7919) % ${input.users} end as actor_n,
                 1 + (n * 104729) % ${input.users} as target_n
          from generate_series(${input.first}::bigint, ${input.last}) as n)
    select ${uuidV7('g.at', 'g.r')}, g.at,
           case when g.by_staff or g.n % 20 <> 5 then a.id end, a.username,
           case when g.by_staff then (${list(STAFF_ACTIONS)})[1 + g.n % 10]
                when g.n % 20 = 5 then 'auth.login_failed'
                else (${list(USER_ACTIONS)})[1 + g.n % 5] end,
           case when g.by_staff then 'user' end,
           case when g.by_staff then t.id::text end,
           case when g.by_staff then t.username end,
           case when g.by_staff then '{"banned": false}'::jsonb end,
           case when g.by_staff then jsonb_build_object('banned', true, 'reason', 'bench') end,
           '10.' || (g.n % 256) || '.' || ((g.n / 256) % 256) || '.' || ((g.n / 65536) % 256)
    from g join u as a on a.n = g.actor_n join u as t on t.n = g.target_n`;
}
