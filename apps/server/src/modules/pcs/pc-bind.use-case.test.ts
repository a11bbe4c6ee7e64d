import { createBotClient } from '@bot/bot-agent';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, startTestServer, type TestServer } from '../../../test/harness.ts';
import { newHwid, whitelist } from '../../../test/helpers/realtime.ts';
import { auditLog } from '../audit/index.ts';

/**
 * Binding a PC is a change of the account like its unbinding: audited in the same transaction as
 * the binding and its timeline event (docs/architecture.md, "A use case owns its effects").
 */
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('binding a PC', () => {
  it('writes an audit entry naming the PC, by its owner', async () => {
    const owner = await server.createUser({ permissions: ['can_useGathering'] });
    await whitelist(server, owner.user.id, ['Lieur']);
    const key = await apiClient(server)<{ data: { accessKey: string } }>(
      'GET',
      '/me/bot-key',
      undefined,
      owner.token,
    );
    const hwid = newHwid();
    const agent = createBotClient({
      serverUrl: server.url,
      trustRoot: server.trustRoot,
      accessKey: key.body.data.accessKey,
      hwid,
      version: '1.0.0',
    });

    await agent.openSession();

    const entries = await server.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'user.hwid_bound'), eq(auditLog.targetId, owner.user.id)));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actorId: owner.user.id,
      actorUsername: owner.user.username,
      targetLabel: owner.user.username,
      before: { hwid: null },
      after: { hwid },
    });
  });
});
