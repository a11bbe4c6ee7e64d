import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness.ts';
import { announce } from '../test/helpers/events.ts';
import { type AppContext, inTransaction, isInTransaction, type TxContext } from './context.ts';
import { writeAudit } from './modules/audit/index.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const entry = { actor: { id: null, username: 'test', ip: null }, action: 'test.context' };

describe('inTransaction', () => {
  it('publishes the events of a use case only once it commits', async () => {
    const { ctx } = server;
    const seen: string[] = [];
    const stop = ctx.events.on('user.changed', ({ userId }) => seen.push(userId));
    try {
      await inTransaction(ctx, async (tx) => {
        tx.events.emit('user.changed', { userId: 'committed' });
        expect(seen).toEqual([]);
      });
      expect(seen).toEqual(['committed']);
    } finally {
      stop();
    }
  });

  it('emits only inside a transaction: outside one the context has no `emit` (compiler-checked)', () => {
    expectTypeOf<AppContext['events']>().not.toHaveProperty('emit');
    expectTypeOf<TxContext['events']>().toHaveProperty('emit');
  });

  it('drops the events of a use case that rolls back', async () => {
    const { ctx } = server;
    const seen: string[] = [];
    const stop = ctx.events.on('user.changed', ({ userId }) => seen.push(userId));
    try {
      await expect(
        inTransaction(ctx, async (tx) => {
          tx.events.emit('user.changed', { userId: 'rolled-back' });
          throw new Error('refused');
        }),
      ).rejects.toThrow('refused');
      // An event published afterwards arrives alone: the dropped one never comes.
      await announce(ctx, 'user.changed', { userId: 'later' });
      expect(seen).toEqual(['later']);
    } finally {
      stop();
    }
  });

  it('joins the transaction of the use case that calls it', async () => {
    const { ctx } = server;
    await inTransaction(ctx, async (outer) => {
      await inTransaction(outer, async (inner) => {
        expect(inner).toBe(outer);
        expect(isInTransaction(inner)).toBe(true);
      });
    });
    expect(isInTransaction(ctx)).toBe(false);
  });

  it('lets an audit entry be written only inside the transaction of its change', async () => {
    const { ctx } = server;
    // The compiler refuses it (`writeAudit` takes a `TxContext`); a cast would still be refused here.
    // @ts-expect-error: the context outside a transaction is no `TxContext`
    await expect(writeAudit(ctx, entry)).rejects.toMatchObject({
      code: 'AUDIT_OUTSIDE_TRANSACTION',
      status: 500,
    });
    await expect(inTransaction(ctx, (tx) => writeAudit(tx, entry))).resolves.toBeUndefined();
  });
});
