import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, startTestServer, TEST_PASSWORD, type TestServer } from '../../../test/harness.ts';
import { authenticatorCode } from '../../../test/helpers/two-factor.ts';

/**
 * Turning two-factor on queues its security mail in its own transaction, like turning it off
 * (docs/architecture.md, "A use case owns its effects"): the account never changes without the
 * mail that tells its owner, and no socket hears of a change that rolled back.
 */
let server: TestServer;
let call: ReturnType<typeof apiClient>;

beforeAll(async () => {
  server = await startTestServer();
  call = apiClient(server);
});
afterAll(() => server.close());

describe('turning two-factor on', () => {
  it('changes nothing and tells no one when its security mail cannot be queued', async () => {
    const owner = await server.createUser();
    const setup = await call<{ data: { secret: string } }>(
      'POST',
      '/me/two-factor/setup',
      undefined,
      owner.token,
    );
    const { db, events } = server.ctx;
    // A real failure of the mail's insert, for this account only: the database refuses the row.
    await db.execute(
      sql.raw(`
      create or replace function refuse_security_mail() returns trigger language plpgsql as $$
      begin
        if new."to" = '${owner.user.email}' then raise exception 'courrier refusé par le test'; end if;
        return new;
      end $$`),
    );
    await db.execute(
      sql.raw(`create trigger refuse_security_mail before insert on mail_outbox
        for each row execute function refuse_security_mail()`),
    );
    const told: string[] = [];
    const stop = events.on('sessions.changed', ({ userId }) => told.push(userId));
    try {
      const enabled = await call(
        'POST',
        '/me/two-factor/enable',
        { password: TEST_PASSWORD, code: authenticatorCode(setup.body.data.secret) },
        owner.token,
      );
      expect(enabled.status).toBe(500);
    } finally {
      stop();
      await db.execute(sql.raw('drop trigger refuse_security_mail on mail_outbox'));
    }
    const status = await call<{ data: { enabled: boolean } }>(
      'GET',
      '/me/two-factor',
      undefined,
      owner.token,
    );
    expect(status.body.data.enabled).toBe(false);
    expect(told).not.toContain(owner.user.id);
  });
});
