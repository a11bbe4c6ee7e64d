import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, startTestServer, type TestServer } from './harness.ts';
import { createBotOwner, newHwid } from './helpers/realtime.ts';

type Media = { schema?: object; example?: unknown };
interface Operation {
  operationId?: string;
  summary?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { content?: Record<string, Media> }>;
}
interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, object> };
}

let server: TestServer;
let document: OpenApiDocument;

const operations = () =>
  Object.entries(document.paths).flatMap(([path, byMethod]) =>
    Object.entries(byMethod).map(([method, operation]) => ({
      key: `${method.toUpperCase()} ${path}`,
      operation,
    })),
  );

/** Routes whose credentials travel in the body, not as a bearer token: their 401 needs no scheme. */
const CREDENTIALS_IN_BODY = [
  'POST /api/auth/login', // username and password
  'POST /api/bot/sessions', // the access key
  'POST /api/bot/lease', // the bot session token
  'POST /api/bot/update-deferral', // the bot session token
];

beforeAll(async () => {
  server = await startTestServer();
  document = (await server.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as OpenApiDocument;
});
afterAll(() => server.close());

describe('the OpenAPI document (docs/protocol.md, "The HTTP API")', () => {
  it('gives every operation a unique operationId and a French summary', () => {
    const missing = operations()
      .filter(({ operation }) => !operation.operationId || !operation.summary)
      .map(({ key }) => key);
    expect(missing, 'ajoutez leur résumé à apps/server/src/api-operations.ts').toEqual([]);
    const ids = operations().map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(document.paths['/api/admin/users/{id}/hwid']?.delete?.operationId).toBe(
      'deleteAdminUsersByIdHwid',
    );
  });

  it('declares the bot session token on /api/bot/routes, and a scheme on every route answering 401 to a missing token', () => {
    expect(document.components.securitySchemes.botSession).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(document.paths['/api/bot/routes']?.get?.security).toEqual([{ botSession: [] }]);
    const unguarded = operations()
      .filter(({ operation }) => operation.responses['401'] && !operation.security)
      .map(({ key }) => key);
    expect(unguarded.sort()).toEqual([...CREDENTIALS_IN_BODY].sort());
  });

  it('documents `details` beside {error, code} in every refusal', () => {
    const refusal = document.paths['/api/bot/sessions']?.post?.responses['426']?.content?.['application/json']
      ?.schema as { properties: Record<string, unknown> };
    expect(Object.keys(refusal.properties)).toEqual(['error', 'code', 'details']);
  });

  it('gives every bot-facing operation examples, and every example of the document validates against its schema', () => {
    const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
    const checked: string[] = [];
    for (const { key, operation } of operations()) {
      const media = [
        ...Object.values(operation.requestBody?.content ?? {}),
        ...Object.values(operation.responses).flatMap((answer) => Object.values(answer.content ?? {})),
      ];
      for (const { schema, example } of media) {
        if (example === undefined || !schema) continue;
        const validate = ajv.compile(schema);
        expect(validate(example), `${key} : ${ajv.errorsText(validate.errors)}`).toBe(true);
        checked.push(key);
      }
      if (!operation.tags?.includes('bot')) continue;
      const success = Object.entries(operation.responses).find(([status]) => status.startsWith('2'))?.[1];
      expect(
        success?.content?.['application/json']?.example,
        `${key} : aucun exemple de réponse`,
      ).toBeDefined();
      if (operation.requestBody)
        expect(
          operation.requestBody.content['application/json']?.example,
          `${key} : aucun exemple`,
        ).toBeDefined();
    }
    expect(new Set(checked).size).toBeGreaterThanOrEqual(5);
  });
});

describe('what the bot-facing routes answer (docs/protocol.md)', () => {
  it('refuses an outdated agent its lease renewal with the same 426 as its session: the minimum and the download page', async () => {
    const call = apiClient(server);
    const admin = await server.createUser({ isAdministrator: true });
    const bot = await createBotOwner(server, { version: '1.0.0' });
    const setMinimum = (minBotVersion: string) =>
      call('PUT', '/admin/settings', { minBotVersion }, admin.token).then((answer) =>
        expect(answer.status).toBe(200),
      );
    await setMinimum('1.2.0');
    try {
      const session = await call('POST', '/bot/sessions', {
        accessKey: bot.accessKey,
        hwid: bot.hwid,
        version: '1.0.0',
      });
      const renewal = await call('POST', '/bot/lease', { token: bot.botToken, hwid: bot.hwid });
      expect(renewal.status).toBe(426);
      const details = { minBotVersion: '1.2.0', pageUrl: `${server.url}/started` };
      expect(renewal.body).toEqual({ ...(session.body as object), details });
      expect((renewal.body as { error: string }).error).toContain('1.2.0');
    } finally {
      await setMinimum('0.0.0');
    }
  });

  it('GET /api/me/bot-key answers the whole key, which opens a session, and its summary does not say masked', async () => {
    const bot = await createBotOwner(server);
    const key = await apiClient(server)<{ data: { accessKey: string } }>(
      'GET',
      '/me/bot-key',
      undefined,
      bot.token,
    );
    expect(key.body.data.accessKey).toBe(bot.accessKey);
    const session = await apiClient(server)('POST', '/bot/sessions', {
      accessKey: key.body.data.accessKey,
      hwid: bot.hwid,
      version: '1.0.0',
    });
    expect(session.status).toBe(201);
    expect(document.paths['/api/me/bot-key']?.get?.summary).not.toMatch(/masqu/i);
  });

  it('names an unknown field by its own path, as the socket does (not an empty path)', async () => {
    const bot = await createBotOwner(server);
    const answer = await apiClient(server)('POST', '/bot/sessions', {
      accessKey: bot.accessKey,
      hwid: bot.hwid,
      version: '1.0.0',
      mood: 'joyeux',
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: 'mood' }] });
    expect((answer.body as { error: string }).error).toContain('mood : ');
  });

  it('names the version format, and the value it refused, to an agent sending 2.1.0.0', async () => {
    const bot = await createBotOwner(server);
    const answer = await apiClient(server)('POST', '/bot/sessions', {
      accessKey: bot.accessKey,
      hwid: newHwid(),
      version: '2.1.0.0',
    });
    expect(answer.status).toBe(400);
    const { error } = answer.body as { error: string };
    expect(error).toContain('« 2.1.0.0 »');
    expect(error).toContain('MAJEUR.MINEUR.CORRECTIF');
  });
});
