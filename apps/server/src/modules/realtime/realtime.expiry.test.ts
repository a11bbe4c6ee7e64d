import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness.ts';
import {
  connectAndAuthenticate,
  type TestSocket,
  waitFor,
  waitForClose,
} from '../../../test/helpers/realtime.ts';
import { newId } from '../../core/ids.ts';
import { grantPermission } from '../access/index.ts';
import { createSession, sessions } from '../auth/index.ts';

let server: TestServer;
const sockets: TestSocket[] = [];
beforeAll(async () => {
  server = await startTestServer({ realtime: { expirySweepMs: 150 } });
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await server.close();
});

describe('expiries close open sockets (nothing else announces them)', () => {
  it('an admin socket closes when the can_manageMap grant expires', async () => {
    const { user, token } = await server.createUser();
    await grantPermission(server.ctx, {
      id: newId(),
      userId: user.id,
      permission: 'can_manageMap',
      expiresAt: new Date(Date.now() + 1_500),
      source: 'manual',
    });
    const { socket, ack } = await connectAndAuthenticate(server, { type: 'admin', token });
    sockets.push(socket);
    expect(ack).toMatchObject({ ok: true });
    const refused = await waitFor<{ code: string }>(socket, 'auth_error', () => true, 8_000);
    expect(refused.code).toBe('FORBIDDEN');
    await waitForClose(socket);
  });

  it('a socket closes when its web session expires', async () => {
    const { user } = await server.createUser({ permissions: ['can_manageMap'] });
    const { token, session } = await createSession(server.ctx, {
      userId: user.id,
      ip: null,
      userAgent: null,
    });
    await server.ctx.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() + 1_200) })
      .where(eq(sessions.id, session.id));
    const { socket } = await connectAndAuthenticate(server, { type: 'admin', token });
    sockets.push(socket);
    expect(socket.connected).toBe(true);
    const refused = await waitFor<{ code: string }>(socket, 'auth_error', () => true, 8_000);
    expect(refused.code).toBe('UNAUTHORIZED');
    await waitForClose(socket);
  });

  it('a socket with a live session and lasting permissions stays open', async () => {
    const { token } = await server.createUser({ permissions: ['can_manageMap'] });
    const { socket } = await connectAndAuthenticate(server, { type: 'admin', token });
    sockets.push(socket);
    // A witness whose session expires: once the sweep has closed it, the sweep has also seen ours.
    const witness = await server.createUser({ permissions: ['can_manageMap'] });
    const [witnessSession] = await server.ctx.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() + 1_000) })
      .where(eq(sessions.userId, witness.user.id))
      .returning();
    expect(witnessSession).toBeDefined();
    const { socket: witnessSocket } = await connectAndAuthenticate(server, {
      type: 'admin',
      token: witness.token,
    });
    sockets.push(witnessSocket);
    await waitFor(witnessSocket, 'auth_error', () => true, 8_000);
    expect(socket.connected).toBe(true);
  });
});
