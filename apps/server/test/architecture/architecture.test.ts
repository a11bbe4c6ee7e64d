import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { forbiddenImports, type Layout, programOf, usesOutside, writesOutsideOwner } from './code-rules.ts';
import { bareErrors } from './error-rules.ts';
import { useCaseViolations } from './use-case-rules.ts';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const SOURCE = join(ROOT, 'apps/server/src');
const layout: Layout = { source: SOURCE };

function files(directory: string, accept: (name: string) => boolean): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory())
      return entry.name === 'node_modules' || entry.name === 'dist' ? [] : files(path, accept);
    return accept(entry.name) ? [path] : [];
  });
}

const isTypeScript = (name: string) => /\.tsx?$/.test(name);
const server = programOf(files(SOURCE, isTypeScript));
/** A rule that infers types over the whole server (tables, parameters) takes 10-20 s on 2 busy cores. */
const WHOLE_TREE_MS = 60_000;

/**
 * The domain modules reach the real-time hub only through the `LiveFleet` port on the context:
 * no production file under `modules/` outside `modules/realtime` imports from it (tests may).
 */
function realtimeOnlyThroughItsPort(source: string) {
  const modules = join(source, 'modules') + sep;
  const realtime = join(source, 'modules', 'realtime') + sep;
  const isRealtime = (file: string) => file.startsWith(realtime);
  return { from: (file: string) => file.startsWith(modules) && !isRealtime(file), to: isRealtime };
}

/** The users' row operations of the PC binding: the PCs module changes them with the components. */
const PC_BINDING_WRITES = {
  declaredIn: 'modules/users/users.service.ts',
  names: ['claimHwid', 'releaseHwid', 'startHwidCooldown'],
  caller: 'modules/pcs',
};

/** A virtual server for the cases that prove each rule: the files below, under a fake `src`. */
function virtualServer(sources: Record<string, string>) {
  const source = join(ROOT, 'virtual-server/src');
  const files = Object.fromEntries(Object.entries(sources).map(([name, text]) => [join(source, name), text]));
  return { program: programOf(Object.keys(files), files), layout: { source } };
}

const TABLE_FILES = {
  'modules/users/users.table.ts': `
    import { pgTable, text } from 'drizzle-orm/pg-core';
    export const users = pgTable('users', { id: text('id').primaryKey() });`,
  'core/outbox.ts': `
    declare const sql: (parts: TemplateStringsArray, ...values: unknown[]) => unknown;
    export function claim(table: unknown) { return sql\`update \${table} set locked = true\`; }`,
};
const DB = `declare const db: { insert(t: unknown): unknown; update(t: unknown): unknown; delete(t: unknown): unknown; execute(q: unknown): unknown };
declare const sql: ((parts: TemplateStringsArray, ...values: unknown[]) => unknown) & { raw(text: string): unknown };`;

describe('server architecture', () => {
  // Who may import whom (module entries, lower layers, test code, cycles) is dependency-cruiser's:
  // module-graph.test.ts proves those rules. The rules below read what an import graph cannot.
  it('production code holds no helpers for tests under src/ (nothing imports test code: module-graph.test.ts)', () => {
    expect(files(SOURCE, (name) => /\.test-helpers\.ts$/.test(name))).toEqual([]);
  });

  it(
    'the PC binding’s columns on users are written only through the PCs module (decision 014)',
    () => {
      expect(usesOutside(server, layout, PC_BINDING_WRITES)).toEqual([]);
    },
    WHOLE_TREE_MS,
  );

  it('the one-caller rule sees an alias, a namespace and a function passed as a value', () => {
    const { program, layout: virtual } = virtualServer({
      'modules/users/users.service.ts': 'export function claimHwid() {}\nexport function findUser() {}',
      'modules/users/index.ts': "export { claimHwid, findUser } from './users.service.ts';",
      'modules/pcs/pc-binding.ts':
        "import { claimHwid } from '../users/index.ts';\nexport const claim = () => claimHwid();",
      'modules/bots/bots.service.ts': `import { claimHwid as bind, findUser } from '../users/index.ts';
        import * as users from '../users/index.ts';
        export const a = () => bind();
        export const b = () => users.claimHwid();
        export const c = findUser;
        export const d = bind;`,
    });
    expect(
      usesOutside(program, virtual, {
        ...PC_BINDING_WRITES,
        declaredIn: 'modules/users/users.service.ts',
      }).map((line) => line.replace(/:\d+:/, ':')),
    ).toEqual([
      'modules/bots/bots.service.ts: uses claimHwid (only modules/pcs)',
      'modules/bots/bots.service.ts: uses claimHwid (only modules/pcs)',
      'modules/bots/bots.service.ts: uses claimHwid (only modules/pcs)',
    ]);
  });

  it('domain modules use the live fleet through its port (ctx.live), never the real-time module', () => {
    expect(forbiddenImports(server, layout, realtimeOnlyThroughItsPort(SOURCE))).toEqual([]);
  });

  it(
    'each table is written only by the module that declares it; the others call its operations',
    () => {
      expect(writesOutsideOwner(server, layout)).toEqual([]);
    },
    WHOLE_TREE_MS,
  );

  it(
    'services take the context; the HTTP layer neither reaches the database nor emits events',
    () => {
      expect(useCaseViolations(server, layout)).toEqual([]);
    },
    WHOLE_TREE_MS,
  );

  it('the use-case rules see a handle however typed, and the HTTP layer reaching the database or emitting in any file', () => {
    const { program, layout: virtual } = virtualServer({
      'db/client.ts': 'export type Db = { insert(): void; update(): void };\nexport type DbOrTx = Db;',
      'core/events.ts': 'export class EventBus { emit(name: string): void {} }',
      'context.ts': `import type { Db } from './db/client.ts';
        import type { EventBus } from './core/events.ts';
        export interface AppContext { db: Db; events: EventBus }
        declare module 'fastify' { interface FastifyInstance { ctx: AppContext } }`,
      'core/admin-list.ts':
        "import type { DbOrTx } from '../db/client.ts';\nexport const page = (db: DbOrTx) => db;",
      'modules/users/users.service.ts': `import type { DbOrTx as Handle } from '../../db/client.ts';
        import type { AppContext } from '../../context.ts';
        export const find = (db: Handle) => db;
        export const indexed = (db: AppContext['db']) => db;
        export const good = (ctx: AppContext) => ctx.db;
        export const bootstrap = (ctx: Pick<AppContext, 'db'>) => ctx.db;
        export const narrowed = (db: Pick<AppContext['db'], 'update'>) => db;
        export const partial = (db: Partial<Handle>) => db;
        export const innocent = (a: object, b: unknown, c: { limit?: number }, d: { insert(): void; at: Date }) => [a, b, c, d];`,
      'modules/users/users.routes.ts': `import type { FastifyInstance } from 'fastify';
        export async function routes(app: FastifyInstance) {
          const { ctx } = app;
          ctx.db.insert();
          const { db: database } = ctx;
          ctx['db'];
          ctx.events.emit('user.changed');
          const { events } = ctx;
          events.emit('user.changed');
          return database;
        }`,
      'modules/users/stamp.plugin.ts': `import type { FastifyPluginAsync } from 'fastify';
        export const stamp: FastifyPluginAsync = async (api) => {
          api.addHook('onRequest', async () => {
            api.ctx.db.insert();
            api.ctx.events.emit('user.changed');
          });
        };`,
      'modules/users/audit.plugin.ts': `import type { FastifyPluginAsync } from 'fastify';
        import type { AppContext } from '../../context.ts';
        function stamp(ctx: AppContext) {
          ctx.db.insert();
          ctx.events.emit('user.changed');
        }
        export const audit: FastifyPluginAsync = async (api) => {
          api.addHook('onRequest', async () => stamp(api.ctx));
        };`,
      'modules/users/request-helpers.ts': `import type { FastifyRequest } from 'fastify';
        import type { AppContext } from '../../context.ts';
        export const touch = (request: FastifyRequest, ctx: AppContext) => ctx.db.insert();`,
    });
    expect(
      useCaseViolations(program, virtual)
        .map((line) => line.replace(/:\d+:/, ':'))
        .sort(),
    ).toEqual([
      'modules/users/audit.plugin.ts: the HTTP layer emits an event',
      'modules/users/audit.plugin.ts: the HTTP layer reaches the database',
      'modules/users/request-helpers.ts: the HTTP layer reaches the database',
      'modules/users/stamp.plugin.ts: the HTTP layer emits an event',
      'modules/users/stamp.plugin.ts: the HTTP layer reaches the database',
      'modules/users/users.routes.ts: the HTTP layer emits an event',
      'modules/users/users.routes.ts: the HTTP layer emits an event',
      'modules/users/users.routes.ts: the HTTP layer reaches the database',
      'modules/users/users.routes.ts: the HTTP layer reaches the database',
      'modules/users/users.routes.ts: the HTTP layer reaches the database',
      'modules/users/users.service.ts: takes a database handle (services take the context)',
      'modules/users/users.service.ts: takes a database handle (services take the context)',
      'modules/users/users.service.ts: takes a database handle (services take the context)',
      'modules/users/users.service.ts: takes a database handle (services take the context)',
    ]);
  });

  it('the import rule sees aliased, namespace, re-exported, dynamic and type imports', () => {
    const { program, layout: virtual } = virtualServer({
      ...TABLE_FILES,
      'modules/users/users.service.ts': 'export const findUser = () => undefined;',
      'core/aliased.ts':
        "import { findUser as lookUp } from '../modules/users/users.service.ts';\nexport const a = lookUp;",
      'core/namespace.ts':
        "import * as users from '../modules/users/users.service.ts';\nexport const b = users;",
      'core/reexport.ts': "export { findUser } from '../modules/users/users.service.ts';",
      'core/dynamic.ts': "export const c = () => import('../modules/users/users.service.ts');",
      'core/typed.ts': "export type D = typeof import('../modules/users/users.service.ts');",
      'core/fine.ts': "import { claim } from './outbox.ts';\nexport const e = claim;",
    });
    const isLower = (file: string) => relative(virtual.source, file).startsWith('core');
    const isDomain = (target: string) => target.startsWith(join(virtual.source, 'modules'));
    expect(forbiddenImports(program, virtual, { from: isLower, to: isDomain }).sort()).toEqual([
      'core/aliased.ts -> modules/users/users.service.ts',
      'core/dynamic.ts -> modules/users/users.service.ts',
      'core/namespace.ts -> modules/users/users.service.ts',
      'core/reexport.ts -> modules/users/users.service.ts',
      'core/typed.ts -> modules/users/users.service.ts',
    ]);
  });

  it('the real-time rule catches a domain module importing the hub, not the hub itself nor a test', () => {
    const { program, layout: virtual } = virtualServer({
      'modules/bots/live-fleet.ts': 'export interface LiveFleet { kickBot(hwid: string): Promise<boolean> }',
      'modules/realtime/realtime.hub.ts':
        "import type { LiveFleet } from '../bots/live-fleet.ts';\nexport const live = {} as LiveFleet;",
      'modules/realtime/rooms.ts': "export { live } from './realtime.hub.ts';",
      'modules/users-online/users-online.service.ts':
        "import { live } from '../realtime/realtime.hub.ts';\nexport const kick = live.kickBot;",
      'modules/alerts/fleet-conditions.ts': "export const load = () => import('../realtime/rooms.ts');",
      'modules/bots/bot-overview.ts':
        "import type { LiveFleet } from './live-fleet.ts';\nexport type F = LiveFleet;",
      'modules/bots/bots.routes.test.ts':
        "import { live } from '../realtime/realtime.hub.ts';\nexport const t = live;",
    });
    expect(forbiddenImports(program, virtual, realtimeOnlyThroughItsPort(virtual.source)).sort()).toEqual([
      'modules/alerts/fleet-conditions.ts -> modules/realtime/rooms.ts',
      'modules/users-online/users-online.service.ts -> modules/realtime/realtime.hub.ts',
    ]);
  });

  it('the ownership rule sees every way of writing another module’s table', () => {
    const { program, layout: virtual } = virtualServer({
      ...TABLE_FILES,
      'modules/users/index.ts': `import { users } from './users.table.ts';
        export { users, users as accounts } from './users.table.ts';
        export const people = users;
        export const tables = { users };`,
      'modules/auth/auth.service.ts': `${DB}
        import { accounts, people, tables, users } from '../users/index.ts';
        import * as t from '../users/users.table.ts';
        import { claim } from '../../core/outbox.ts';
        export async function evasions() {
          await db.update(accounts);
          await db
            .delete(
              t.users,
            );
          await db.execute(sql\`insert into
            \${users} (id) values (1)\`);
          await claim(accounts);
          await db.update(people);
          await db.delete(tables.users);
          await db.execute(sql\`delete from users where id = \${1}\`);
          await db.execute(sql.raw('UPDATE "users" SET id = 2'));
          await db.update(accounts as typeof accounts);
          await db.delete((people)!);
          await db.insert(tables.users satisfies unknown);
          await db.execute(sql\`update public.users set id = 3\`);
          await db.execute(sql.raw('delete from public."users"'));
          await db.execute(sql\`truncate users\`);
          await db.execute(sql\`truncate table only "public"."users" cascade\`);
          await db.execute(sql\`truncate \${users}\`);
        }
        export const reads = () => sql\`select id from users\`;`,
      'modules/users/users.service.ts': `${DB}
        import { users } from './users.table.ts';
        import { claim } from '../../core/outbox.ts';
        export async function own() {
          await db.insert(users);
          await claim(users);
          await db.execute(sql\`delete from users\`);
        }`,
    });
    expect(writesOutsideOwner(program, virtual).map((line) => line.replace(/:\d+:/, ':'))).toEqual([
      'modules/auth/auth.service.ts: update accounts (owned by modules/users)',
      'modules/auth/auth.service.ts: delete t.users (owned by modules/users)',
      'modules/auth/auth.service.ts: raw SQL write of users (owned by modules/users)',
      'modules/auth/auth.service.ts: hands accounts (owned by modules/users)',
      'modules/auth/auth.service.ts: update people (owned by modules/users)',
      'modules/auth/auth.service.ts: delete tables.users (owned by modules/users)',
      'modules/auth/auth.service.ts: raw SQL write of users (owned by modules/users)',
      'modules/auth/auth.service.ts: raw SQL write of users (owned by modules/users)',
      'modules/auth/auth.service.ts: update accounts (owned by modules/users)',
      'modules/auth/auth.service.ts: delete people (owned by modules/users)',
      'modules/auth/auth.service.ts: insert tables.users (owned by modules/users)',
      'modules/auth/auth.service.ts: raw SQL write of users (owned by modules/users)',
      'modules/auth/auth.service.ts: raw SQL write of users (owned by modules/users)',
      'modules/auth/auth.service.ts: raw SQL write of users (owned by modules/users)',
      'modules/auth/auth.service.ts: raw SQL write of users (owned by modules/users)',
      'modules/auth/auth.service.ts: raw SQL write of users (owned by modules/users)',
    ]);
  });

  it('the domain modules throw AppError codes, never a bare Error with words of its own', () => {
    expect(bareErrors(server, layout)).toEqual([]);
  });

  it('the error rule sees a bare Error however it is built, and lets our own error classes and the CLIs be', () => {
    const { program, layout: virtual } = virtualServer({
      'core/errors.ts':
        'export class AppError extends Error { constructor(readonly code: string) { super(code); } }',
      'modules/orders/orders.service.ts': `import { AppError } from '../../core/errors.ts';
        const Failure = Error;
        export function refuse(kind: number) {
          if (kind === 1) throw new Error('Commande introuvable.');
          if (kind === 2) throw Error('Commande introuvable.');
          if (kind === 3) throw new Failure('Commande introuvable.');
          if (kind === 4) return Promise.reject(new TypeError('Commande invalide.'));
          throw new AppError('ORDER_NOT_FOUND');
        }`,
      'modules/orders/orders.service.test.ts': "export const t = () => { throw new Error('dans un test'); };",
      'cli/restore.ts':
        "export const usage = () => { throw new Error('Indiquez le fichier de sauvegarde.'); };",
    });
    expect(bareErrors(program, virtual).map((line) => line.replace(/:\d+:/, ':'))).toEqual([
      "modules/orders/orders.service.ts: a bare Error (throw AppError('CODE'))",
      "modules/orders/orders.service.ts: a bare Error (throw AppError('CODE'))",
      "modules/orders/orders.service.ts: a bare Error (throw AppError('CODE'))",
      "modules/orders/orders.service.ts: a bare TypeError (throw AppError('CODE'))",
    ]);
  });
});

/** Every source file of every package: the apps, the contracts, the benchmarks, the journeys, the scripts. */
const everySourceFile = ['apps', 'packages', 'bench', 'e2e', 'scripts', 'deploy'].flatMap((folder) =>
  files(join(ROOT, folder), (name) => /\.(tsx?|mjs)$/.test(name)),
);
const linesOf = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

describe('file sizes', () => {
  it('no file in any package is longer than 400 lines (tests included)', () => {
    const long = everySourceFile
      .map((path) => ({ path: relative(ROOT, path), lines: linesOf(readFileSync(path, 'utf8')) }))
      .filter(({ lines }) => lines > 400);
    expect(everySourceFile.length).toBeGreaterThan(300);
    expect(long).toEqual([]);
  });

  it('counts lines as an editor does: a final newline adds none', () => {
    expect(linesOf('a\nb\n')).toBe(2);
    expect(linesOf('a\nb')).toBe(2);
    expect(linesOf(`${'x\n'.repeat(400)}`)).toBe(400);
  });
});
