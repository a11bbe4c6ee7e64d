import type { FastifyPluginAsync } from 'fastify';
import { PRODUCT_VERSION } from '../../core/paths.ts';
import { buildAsyncApiDocument } from './protocol-document.ts';
import { renderProtocolPage } from './protocol-page.ts';

/** Public like the OpenAPI document; a description changes only with a new version of the server. */
const CACHE_CONTROL = 'public, max-age=300';

/**
 * The socket protocol's description beside the OpenAPI one (docs/protocol.md): the AsyncAPI 3.0
 * document at `/api/docs/asyncapi.json` and a readable page of it at `/api/docs/asyncapi`, both
 * built once, at start, from the contracts and this server's limits.
 */
export const protocolDocsRoutes: FastifyPluginAsync = async (app) => {
  const document = buildAsyncApiDocument(app.ctx.config, PRODUCT_VERSION);
  const json = JSON.stringify(document);
  const page = renderProtocolPage(document);

  app.get('/api/docs/asyncapi.json', { schema: { hide: true } }, async (_request, reply) =>
    reply.header('cache-control', CACHE_CONTROL).type('application/json; charset=utf-8').send(json),
  );
  app.get('/api/docs/asyncapi', { schema: { hide: true } }, async (_request, reply) =>
    reply.header('cache-control', CACHE_CONTROL).type('text/html; charset=utf-8').send(page),
  );
};
