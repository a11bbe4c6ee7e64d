import pino from 'pino';

/**
 * The log's `err` serializer: pino's, minus the values a failed query carried. A database error
 * (an outage, a full disk) was logged with its statement's parameters in `params`, its message and
 * its stack: e-mail addresses, token hashes, addresses, whole mail bodies. The SQL text stays (its
 * values are `$1`, `$2`…), and so does the database's own message; PostgreSQL's `detail` (which
 * quotes key values) goes, and so does the connection node-postgres attaches to its errors
 * (docs/security.md, "Logs").
 */
export function errorWithoutQueryValues(error: Error): Record<string, unknown> {
  const serialized = pino.stdSerializers.err(error) as unknown as Record<string, unknown>;
  return withoutValues(serialized, 0);
}

function withoutValues(value: Record<string, unknown>, depth: number): Record<string, unknown> {
  // node-postgres attaches the connection (`client`: its parameters, cancel key, internals).
  const { params: _params, detail: _detail, client: _client, ...rest } = value;
  for (const key of ['message', 'stack'] as const)
    if (typeof rest[key] === 'string') rest[key] = stripParams(rest[key] as string);
  if (rest.cause && typeof rest.cause === 'object' && depth < 5)
    rest.cause = withoutValues(rest.cause as Record<string, unknown>, depth + 1);
  return rest;
}

/** Drizzle writes the values after the statement: `Failed query: …\nparams: a,b,c`. */
function stripParams(text: string): string {
  return text.replace(/\nparams: [^\n]*/g, '\nparams: [masqués]');
}
