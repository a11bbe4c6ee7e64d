import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, startTestServer, type TestServer } from '../../../test/harness.ts';
import { newHwid } from '../../../test/helpers/realtime.ts';
import { updateSettings } from '../settings/index.ts';

/** The protocol version an agent speaks, and the one the server answers (docs/protocol.md, "Versions"). */
let server: TestServer;
let call: ReturnType<typeof apiClient>;

beforeAll(async () => {
  server = await startTestServer();
  call = apiClient(server);
});
afterAll(() => server.close());

/** A first session of a new customer's agent (each its own PC). */
async function openSession(extra: Record<string, unknown>) {
  const owner = await server.createUser({ permissions: ['can_useGathering'] });
  const key = await call<{ data: { accessKey: string } }>('GET', '/me/bot-key', undefined, owner.token);
  return call<Record<string, unknown>>('POST', '/bot/sessions', {
    accessKey: key.body.data.accessKey,
    hwid: newHwid(),
    version: '1.2.0',
    ...extra,
  });
}

describe('POST /api/bot/sessions and the protocol version', () => {
  it('answers the version the server speaks, to an agent of 1.0 (said or not) or of a newer minor', async () => {
    for (const said of [{}, { protocolVersion: '1.0' }, { protocolVersion: '1.7' }]) {
      const opened = await openSession(said);
      expect(opened.status).toBe(201);
      expect(opened.body.protocolVersion).toBe('1.1');
    }
  });

  it('answers an unsupported major with the 426 of an outdated agent', async () => {
    await updateSettings(server.ctx, {
      patch: { minBotVersion: '1.0.0' },
      actor: { id: null, username: 'test', ip: null },
    });
    const outdated = await openSession({ version: '0.9.0' });
    const otherMajor = await openSession({ protocolVersion: '2.0' });
    expect(outdated.status).toBe(426);
    expect(otherMajor.status).toBe(426);
    expect(otherMajor.body).toEqual(outdated.body);
  });

  it('names the format of a malformed protocol version', async () => {
    const refused = await openSession({ protocolVersion: '1.1.0' });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('VALIDATION_ERROR');
    expect(String(refused.body.error)).toContain('MAJEURE.MINEURE');
  });
});
