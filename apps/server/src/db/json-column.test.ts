import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { newId } from '../core/ids.ts';
import { auditLog } from '../modules/audit/index.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('JSON columns', () => {
  it('property: any JSON value, strings that look like JSON included, reads back exactly as written', async () => {
    const { db } = server.ctx;
    const looksLikeJson = fc.constantFrom(
      '2026',
      'true',
      'null',
      '[]',
      '{"a":1}',
      '"x"',
      ' ',
      '🤖',
      'x'.repeat(10_240),
    );
    const value = fc.oneof(looksLikeJson, fc.jsonValue({ maxDepth: 3 }));
    await fc.assert(
      fc.asyncProperty(value, value, async (before, after) => {
        const id = newId();
        await db.insert(auditLog).values({
          id,
          actorUsername: 'test',
          action: 'test.json',
          targetType: 'test',
          before,
          after,
        });
        const [row] = await db.select().from(auditLog).where(eq(auditLog.id, id));
        // JSON has no -0 and no undefined: compare with what JSON itself keeps.
        expect(row?.before).toEqual(JSON.parse(JSON.stringify(before)));
        expect(row?.after).toEqual(JSON.parse(JSON.stringify(after)));
      }),
      { numRuns: 60 },
    );
  });
});
