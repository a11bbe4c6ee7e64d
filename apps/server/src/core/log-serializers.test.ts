import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import pino from 'pino';
import { expect, it } from 'vitest';
import { errorWithoutQueryValues } from './log-serializers.ts';

// An operator found customers' e-mail addresses, token hashes and whole mail bodies in the log of
// an outage: each failed query was logged with its parameters. Here a real query fails on a real
// embedded database and is logged through the server's serializer.
it('logs a failed query with its SQL and the database’s message, never the values it carried', async () => {
  const client = new PGlite();
  const db = drizzle(client);
  const secret = 'alice+bots@example.test';
  const error = await db.execute(sql`insert into missing_table values (${secret})`).then(
    () => undefined,
    (failure: Error) => failure,
  );
  await client.close();
  expect(error?.message).toContain(secret); // what drizzle puts in its message

  const lines: string[] = [];
  const log = pino(
    { serializers: { err: errorWithoutQueryValues } },
    { write: (line: string) => void lines.push(line) },
  );
  log.warn({ err: error }, 'base de données indisponible');
  const [line] = lines;
  expect(line).not.toContain(secret);
  expect(line).toContain('insert into missing_table values ($1)');
  expect(line).toContain('relation \\"missing_table\\" does not exist');
});

it('logs a lost connection without the connection itself (its parameters and cancel key)', () => {
  const lines: string[] = [];
  const log = pino(
    { serializers: { err: errorWithoutQueryValues } },
    { write: (line: string) => void lines.push(line) },
  );
  const lost = Object.assign(new Error('Connection terminated unexpectedly'), {
    client: { connectionParameters: { user: 'postgres', port: 5432 }, secretKey: 1234567 },
  });
  log.warn({ err: lost }, 'connexion à la base perdue (remplacée)');
  expect(lines[0]).toContain('Connection terminated unexpectedly');
  expect(lines[0]).not.toContain('secretKey');
  expect(lines[0]).not.toContain('connectionParameters');
});
