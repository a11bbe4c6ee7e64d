import type { FastifyBaseLogger, FastifyInstance } from 'fastify';

/**
 * One log line per request at `info`, when it is answered (Fastify's default writes two, each
 * through the redaction rules: about a third of the CPU of a cached API read, measured by
 * bench/http); its arrival only at `debug`. Both carry the request id like every line of the request.
 *
 * The answered line is written by a child of the server's logger without the redaction rules: its
 * fields are these four and the request id, none of them a secret (the rules never reached inside
 * the URL anyway), and pino runs the rules' wildcard paths over every line it writes (6 % of a
 * signed-in read, bench/http). Every other line keeps the rules.
 */
export function logRequests(app: FastifyInstance, log: FastifyBaseLogger): void {
  const answeredLog = log.child({}, { redact: [] });
  app.addHook('onRequest', (request, _reply, done) => {
    request.log.debug({ method: request.method, url: request.url }, 'incoming request');
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    answeredLog.info(
      {
        reqId: request.id,
        method: request.method,
        url: request.url,
        statusCode: reply.statusCode,
        responseTime: Math.round(reply.elapsedTime * 10) / 10,
      },
      'request completed',
    );
    done();
  });
}
