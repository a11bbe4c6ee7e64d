import type { FastifyInstance } from 'fastify';

/**
 * One log line per request at `info`, when it is answered (Fastify's default writes two, each
 * through the redaction rules: about a third of the CPU of a cached API read, measured by
 * bench/http); its arrival only at `debug`. Both carry the request id like every line of the request.
 */
export function logRequests(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    request.log.debug({ method: request.method, url: request.url }, 'incoming request');
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    request.log.info(
      {
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
