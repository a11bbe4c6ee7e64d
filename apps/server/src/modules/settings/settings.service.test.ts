import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness.ts';
import { getSettings, updateSettings } from './settings.service.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('getSettings', () => {
  it('answers callers arriving while the settings are read with that one read', async () => {
    const { ctx } = server;
    await updateSettings(ctx, { patch: { isSnow: true }, actor: { id: null, username: 'test', ip: null } });

    const answers = await Promise.all(Array.from({ length: 20 }, () => getSettings(ctx)));

    // One read parses one object: every caller holds it.
    expect(new Set(answers).size).toBe(1);
    expect(answers[0]?.isSnow).toBe(true);
  });
});
