import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiClient, startTestServer, type TestServer } from './harness.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

it('answers health and readiness', async () => {
  const call = apiClient(server);
  expect((await call('GET', '/healthz')).body).toMatchObject({ status: 'ok', version: expect.any(String) });
  expect((await call('GET', '/readyz')).status).toBe(200);
  const { user, token } = await server.createUser({ permissions: ['can_useGathering'] });
  const me = await call('GET', '/me/permissions', undefined, token);
  expect(me.body).toEqual({ data: ['can_useGathering'] });
  expect(user.Policy.IsAdministrator).toBe(false);
});
