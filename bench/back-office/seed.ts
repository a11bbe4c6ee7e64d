/**
 * `npm run seed:bench [-- --users 100000 --audit 1000000 --reset]`: the back office at size
 * (seed-data.ts) on the configured database: DATABASE_URL, or the embedded one in DATA_DIR (stop the
 * server first: PGlite is one process). Runs once: when `bench_*` users exist it says so and stops;
 * `--reset` deletes them and their audit entries first. Then `npm run bench:back-office -- --seeded`.
 */
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { buildApp } from '../../apps/server/src/app.ts';
import { loadConfig } from '../../apps/server/src/config.ts';
import { contextOf } from '../../apps/server/src/context.ts';
import { BENCH_USERS, seedBackOffice } from './seed-data.ts';

const { values } = parseArgs({
  options: {
    users: { type: 'string', default: '100000' },
    audit: { type: 'string', default: '1000000' },
    reset: { type: 'boolean', default: false },
  },
});
const users = Number(values.users);
const audit = Number(values.audit);
if (!Number.isInteger(users) || users < 100 || !Number.isInteger(audit) || audit < 0) {
  console.error('--users doit être un entier ≥ 100 et --audit un entier ≥ 0.');
  process.exit(1);
}

const base = loadConfig();
// Bulk statements run longer than a request may (DATABASE_STATEMENT_TIMEOUT_MS, 10 s by default).
const config = {
  ...base,
  logLevel: 'warn' as const,
  databaseTimeouts: { ...base.databaseTimeouts, statementTimeoutMs: 600_000 },
};
const app = await buildApp({ config });
const { db, engine } = contextOf(app);
const run = (query: string) => db.execute(sql.raw(query));
/** The first column of the first row (both engines answer `{ rows }`). */
const count = async (query: string) => {
  const { rows } = (await run(query)) as { rows: Record<string, unknown>[] };
  return Number(Object.values(rows[0] ?? {})[0] ?? 0);
};
const startedAt = performance.now();
const step = (what: string) =>
  console.log(`  ${((performance.now() - startedAt) / 1000).toFixed(1).padStart(6)} s  ${what}`);

try {
  const present = await count(`select count(*) from users where ${BENCH_USERS}`);
  if (present > 0 && !values.reset) {
    console.log(
      `Le jeu de données du benchmark est déjà là (${present} utilisateurs bench_*, ` +
        `${await count('select count(*) from audit_log')} entrées d'audit) : rien à faire.\n` +
        'Pour le recréer : npm run seed:bench -- --reset',
    );
  } else {
    const where = engine === 'postgres' ? 'PostgreSQL' : `PGlite (${config.dataDir})`;
    console.log(
      `Jeu de données du benchmark sur ${where} : ${users} utilisateurs, ${audit} entrées d'audit.`,
    );
    if (present > 0) {
      await run(`delete from audit_log where actor_username like 'bench\\_%'`);
      await run(`delete from users where ${BENCH_USERS}`); // roles, grants, whitelists: cascade
      await run(`delete from roles where name like 'Bench %'`);
      step(`ancien jeu supprimé (${present} utilisateurs)`);
    }
    await seedBackOffice(db, { users, audit, step });
    // Planner statistics, and the visibility map that lets counts read an index alone.
    const statistics = engine === 'postgres' ? 'vacuum analyze' : 'analyze';
    await run(statistics);
    step(statistics);
  }
} finally {
  await app.close();
}
