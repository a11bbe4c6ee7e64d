import type { FastifyBaseLogger, FastifyInstance } from 'fastify';

/** Query parameters whose values are secrets: activation and reset links, signed downloads. */
const SECRET_PARAMETERS = /([?&](?:token|signature)=)[^&#]*/gi;

function maskSecrets(url: string): string {
  return url.includes('?') ? url.replace(SECRET_PARAMETERS, '$1[Redacted]') : url;
}

/**
 * One log line per request at `info`, when it is answered (Fastify's default writes two, each
 * through the redaction rules: about a third of the CPU of a cached API read, measured by
 * bench/http); its arrival only at `debug`. Both carry the request id like every line of the request.
 *
 * The URL is logged with the values of its secret parameters masked: the mail links' tokens and
 * the signed download links' signatures reach the server in the query string.
 *
 * The answered line is written by a child of the server's logger without the redaction rules: its
 * fields are these four and the request id, none of them a secret once the URL is masked, and pino
 * runs the rules' wildcard paths over every line it writes (6 % of a signed-in read, bench/http).
 * Every other line keeps the rules.
 */
export function logRequests(app: FastifyInstance, log: FastifyBaseLogger): void {
  const answeredLog = log.child({}, { redact: [] });
  app.addHook('onRequest', (request, _reply, done) => {
    request.log.debug({ method: request.method, url: maskSecrets(request.url) }, 'requête reçue');
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    answeredLog.info(
      {
        reqId: request.id,
        method: request.method,
        url: maskSecrets(request.url),
        statusCode: reply.statusCode,
        responseTime: Math.round(reply.elapsedTime * 10) / 10,
      },
      'requête terminée',
    );
    done();
  });
}
