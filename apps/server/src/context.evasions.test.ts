import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness.ts';
import { type AppContext, inTransaction, isInTransaction, type TxContext } from './context.ts';
import type { EventBus } from './core/events.ts';
import { auditLog, writeAudit } from './modules/audit/index.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/**
 * A context that looks like a transaction's without being one: held events made from the app's bus
 * by a cast (the context shows listening only), beside the app's own database.
 */
function lookAlike(ctx: AppContext) {
  return { ...ctx, events: (ctx.events as EventBus).heldUntilCommit() };
}

const entryOf = (action: string) => ({ actor: { id: null, username: 'test', ip: null }, action });

describe('a transaction’s context, and only it, is a TxContext (docs/architecture.md, "A use case owns its effects")', () => {
  it('outside a transaction the context can only listen: it neither emits nor holds events (compiler-checked)', () => {
    expectTypeOf<AppContext['events']>().not.toHaveProperty('heldUntilCommit');
    expectTypeOf<AppContext['events']>().not.toHaveProperty('emit');
    // @ts-expect-error: held events beside the app's database make no transaction's context
    const forged: TxContext = lookAlike(server.ctx);
    expect(forged).toBeDefined();
  });

  it('refuses an audit entry written through a look-alike of a transaction’s context', async () => {
    const forged = lookAlike(server.ctx) as unknown as TxContext;
    expect(isInTransaction(forged)).toBe(false);
    await expect(writeAudit(forged, entryOf('test.forged'))).rejects.toMatchObject({
      code: 'AUDIT_OUTSIDE_TRANSACTION',
    });
  });

  it('opens a real transaction for a look-alike: what its work wrote is rolled back with it', async () => {
    const forged = lookAlike(server.ctx);
    await expect(
      inTransaction(forged, async (tx) => {
        await writeAudit(tx, entryOf('test.rolled-back'));
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    const kept = await server.ctx.db.select().from(auditLog).where(eq(auditLog.action, 'test.rolled-back'));
    expect(kept).toEqual([]);
  });
});
