import { SOCKET_EVENTS, socketAuthenticateInput } from '@bot/contracts';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.ts';

interface Message {
  name: string;
  payload?: object;
  examples?: { name: string; payload: unknown }[];
}
interface Operation {
  action: 'send' | 'receive';
  channel: { $ref: string };
  messages: { $ref: string }[];
  reply?: { messages: { $ref: string }[] };
}
interface AsyncApiDocument {
  asyncapi: string;
  info: { description: string };
  channels: Record<string, { messages: Record<string, { $ref: string }> }>;
  operations: Record<string, Operation>;
  components: { messages: Record<string, Message> };
}

let server: TestServer;
let document: AsyncApiDocument;

/** `#/a/b/c` of the document, as a JSON pointer names it, following a reference to a reference. */
function resolve(ref: string): unknown {
  const node = ref
    .replace(/^#\//, '')
    .split('/')
    .reduce<unknown>((parent, key) => (parent as Record<string, unknown> | undefined)?.[key], document);
  const next = (node as { $ref?: string } | undefined)?.$ref;
  return next ? resolve(next) : node;
}

beforeAll(async () => {
  server = await startTestServer();
  const answer = await fetch(`${server.api}/docs/asyncapi.json`);
  expect(answer.status).toBe(200);
  expect(answer.headers.get('cache-control')).toBe('public, max-age=300');
  document = JSON.parse(await answer.text()) as AsyncApiDocument;
});
afterAll(() => server.close());

describe('the AsyncAPI document of the socket protocol (docs/protocol.md)', () => {
  it('is AsyncAPI 3.0 and says how Socket.IO maps onto its WebSocket binding', () => {
    expect(document.asyncapi).toBe('3.0.0');
    expect(document.info.description).toContain('42["<name>",<payload>]');
    expect(document.info.description).toContain('43<id>[<réponse>]');
  });

  it('describes every socket event of the contracts, and none other', () => {
    const described = new Set(Object.values(document.components.messages).map((message) => message.name));
    expect([...described].sort()).toEqual(Object.values(SOCKET_EVENTS).sort());
  });

  it('says how each kind of socket authenticates, the journal reader included', () => {
    const authenticate = Object.values(document.components.messages).find(
      (message) => message.name === 'authenticate',
    ) as Message & { description: string };
    for (const option of socketAuthenticateInput.options)
      expect(authenticate.description).toContain(`{type: '${option.shape.type.value}'`);
  });

  it('describes the events both ways as two operations (bot_update, bot_log)', () => {
    const actionsOf = (event: string) =>
      Object.values(document.operations)
        .filter((operation) => (resolve(operation.messages[0]!.$ref) as Message).name === event)
        .map((operation) => operation.action)
        .sort();
    expect(actionsOf('bot_update')).toEqual(['receive', 'send']);
    expect(actionsOf('bot_log')).toEqual(['receive', 'send']);
    expect(actionsOf('bot_command')).toEqual(['send']);
    expect(actionsOf('bot_command_result')).toEqual(['receive']);
  });

  it('resolves every reference of its operations and channel, acknowledgements as replies', () => {
    for (const operation of Object.values(document.operations)) {
      expect(resolve(operation.channel.$ref)).toBeDefined();
      for (const ref of [...operation.messages, ...(operation.reply?.messages ?? [])])
        expect(resolve(ref.$ref), ref.$ref).toMatchObject({ name: expect.any(String) });
    }
    for (const channel of Object.values(document.channels))
      for (const ref of Object.values(channel.messages)) expect(resolve(ref.$ref), ref.$ref).toBeDefined();
    expect(document.operations['client.authenticate']?.reply).toBeDefined();
  });

  it('gives every payload at least one example, and every example validates against its schema', () => {
    // Formats are checked by the patterns zod writes beside them.
    const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
    const withPayload = Object.entries(document.components.messages).filter(([, message]) => message.payload);
    expect(withPayload.length).toBeGreaterThanOrEqual(20);
    for (const [id, message] of withPayload) {
      expect(message.examples?.length, `${id} : aucun exemple`).toBeGreaterThan(0);
      const validate = ajv.compile(message.payload as object);
      for (const example of message.examples ?? []) {
        const isValid = validate(example.payload);
        expect(isValid, `${id} ${example.name} : ${ajv.errorsText(validate.errors)}`).toBe(true);
      }
    }
  });

  it('states the limits in the schemas (a report of at most 8 accounts, a log batch of at most 50 lines)', () => {
    const report = document.components.messages['client.bot_update']?.payload as {
      properties: { accounts: { maxItems: number } };
    };
    expect(report.properties.accounts.maxItems).toBe(8);
    const batch = document.components.messages['client.bot_log']?.payload as {
      properties: { lines: { maxItems: number } };
    };
    expect(batch.properties.lines.maxItems).toBe(50);
  });

  it('has a readable page naming every event, public and cached like the document', async () => {
    const answer = await fetch(`${server.api}/docs/asyncapi`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
    expect(answer.headers.get('cache-control')).toBe('public, max-age=300');
    const page = await answer.text();
    for (const event of Object.values(SOCKET_EVENTS)) expect(page).toContain(`<code>${event}</code>`);
  });
});
