import {
  dataAnswer,
  idParams,
  latestReleaseAnswer,
  latestReleaseQuery,
  listQuery,
  RELEASE_PART_BYTES,
  releaseDownloadQuery,
  releaseDraftInput,
  releasePartParams,
  releasePublishInput,
  releaseSchema,
  releasesAnswer,
} from '@bot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pageOfItems } from '../../core/admin-list.ts';
import { AppError } from '../../core/errors.ts';
import { auditActorOf, requirePermission, requireSession, sessionOf } from '../../core/guards.ts';
import { guardRoutes } from '../../core/route-docs.ts';
import { canRunBot, getUserPermissions } from '../access/index.ts';
import { getUserById } from '../users/index.ts';
import {
  downloadLink,
  isNotModified,
  isValidDownloadLink,
  rangeToHonour,
  releaseBytes,
  requestedRange,
  sendReleaseFile,
} from './release-downloads.ts';
import { releaseRolloutRoutes } from './release-rollouts.routes.ts';
import { offeredRelease } from './release-rollouts.ts';
import {
  countDownload,
  createRelease,
  deleteRelease,
  findPublishedRelease,
  listReleases,
  publishRelease,
  runningAgentOf,
  storeReleasePart,
} from './releases.service.ts';

const tags = ['releases'];

/** Agent releases: staff publish builds, customers with an active package download them. */
export const releasesRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(releasesAdminRoutes);
  await app.register(releaseRolloutRoutes);
  const { ctx } = app;

  app.get(
    '/releases/latest',
    {
      onRequest: requireSession,
      config: { errors: [403] },
      schema: { tags, querystring: latestReleaseQuery, response: { 200: latestReleaseAnswer } },
    },
    async (request) => {
      const { userId } = sessionOf(request);
      if (!canRunBot(await getUserPermissions(ctx, userId))) throw new AppError('BOT_PERMISSION_REQUIRED');
      // The build offered to the customer's PC (a rollout in progress reaches its share first).
      const hwid = (await getUserById(ctx, userId)).hwid;
      const release = await offeredRelease(ctx, { channel: request.query.channel, hwid });
      if (!release) return { data: null };
      const { createdBy: _by, downloads: _count, rollout: _rollout, ...shown } = release;
      return {
        data: {
          release: shown,
          download: downloadLink(ctx, release.id),
          running: await runningAgentOf(ctx, userId, release.version),
        },
      };
    },
  );

  // The link carries its own proof (signed, expiring): a download manager resumes without a session.
  // The stored bytes as they are (never compressed on the fly): a known Content-Length shows progress
  // and a Range means the same bytes on every request.
  app.get(
    '/releases/:id/download',
    {
      compress: false,
      config: { errors: [403, 410, 416] },
      schema: {
        tags,
        params: idParams,
        querystring: releaseDownloadQuery,
        response: {
          200: {
            description: 'Le fichier du bot',
            content: { 'application/octet-stream': { schema: z.string() } },
          },
          206: {
            description: 'La plage demandée (Range)',
            content: { 'application/octet-stream': { schema: z.string() } },
          },
          304: z.undefined().describe('Inchangé : l’ETag envoyé (If-None-Match) est celui du fichier'),
        },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      if (!isValidDownloadLink(ctx, { releaseId: id, ...request.query }))
        throw new AppError('RELEASE_LINK_INVALID');
      const release = await findPublishedRelease(ctx, id);
      if (!release?.size || !release.sha256) throw new AppError('NOT_FOUND');
      // A link handed out before the build was withdrawn or halted no longer brings it (decision 910).
      if (release.rollout.state === 'yanked' || release.rollout.state === 'halted')
        throw new AppError('RELEASE_WITHDRAWN');
      const etag = `"${release.sha256}"`;
      reply.header('accept-ranges', 'bytes');
      reply.header('etag', etag);
      // No payload: a serialized `null` would announce 4 bytes a 304 never carries.
      if (isNotModified(request.headers['if-none-match'], etag)) return reply.code(304).send();
      const range = requestedRange(release.size, rangeToHonour(request.headers, etag));
      if (range === 'unsatisfiable') {
        reply.header('content-range', `bytes */${release.size}`);
        throw new AppError('RANGE_NOT_SATISFIABLE');
      }
      // A download begins at the first byte and asks for the rest (probes such as bytes=0-0 are not one).
      const isDownload = range.start === 0 && range.end === release.size - 1 && request.method === 'GET';
      if (isDownload) await countDownload(ctx, id);
      return sendReleaseFile(reply, { release, range, bytes: releaseBytes(ctx, id, range) });
    },
  );
};

/** `/admin/releases`: the same permission as the minimum version setting. */
const releasesAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  guardRoutes(app, requirePermission('can_manageSettings'));
  // Parts of a file arrive as raw bytes; this parser is scoped to these routes.
  app.addContentTypeParser(
    'application/octet-stream',
    { parseAs: 'buffer', bodyLimit: RELEASE_PART_BYTES },
    (_request, body, done) => done(null, body),
  );

  app.get(
    '/admin/releases',
    { schema: { tags, querystring: listQuery, response: { 200: releasesAnswer } } },
    async (request) =>
      pageOfItems(await listReleases(ctx), request.query, {
        text: (release) => `${release.version} ${release.channel} ${release.notes} ${release.fileName}`,
        sortKeys: {
          createdAt: (release) => release.createdAt,
          downloads: (release) => release.downloads,
        },
      }),
  );

  app.post(
    '/admin/releases',
    {
      config: { errors: [409] },
      schema: { tags, body: releaseDraftInput, response: { 201: dataAnswer(releaseSchema) } },
    },
    async (request, reply) => {
      const release = await createRelease(ctx, { ...request.body, actor: auditActorOf(request) });
      return reply.code(201).send({ data: release });
    },
  );

  app.put(
    '/admin/releases/:id/parts/:index',
    {
      config: { errors: [409, 413, 415] },
      schema: {
        tags,
        description: `Une partie du fichier, en application/octet-stream : ${RELEASE_PART_BYTES} octets, sauf la dernière.`,
        params: releasePartParams,
        response: { 204: z.null().describe('Partie enregistrée') },
      },
      // Told before the body is read, with the limit (the parser's own refusal would not name it).
      preParsing: async (request) => {
        if (Number(request.headers['content-length']) > RELEASE_PART_BYTES)
          throw new AppError('RELEASE_PART_TOO_LARGE');
      },
    },
    async (request, reply) => {
      if (!Buffer.isBuffer(request.body)) throw new AppError('RELEASE_PART_INVALID');
      await storeReleasePart(ctx, { ...request.params, bytes: request.body });
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/admin/releases/:id/publish',
    {
      config: { errors: [409, 422] },
      schema: {
        tags,
        params: idParams,
        body: releasePublishInput,
        response: { 200: dataAnswer(releaseSchema) },
      },
    },
    async (request) => ({
      data: await publishRelease(ctx, {
        ...request.body,
        id: request.params.id,
        actor: auditActorOf(request),
      }),
    }),
  );

  app.delete(
    '/admin/releases/:id',
    { schema: { tags, params: idParams, response: { 204: z.null().describe('Version retirée') } } },
    async (request, reply) => {
      await deleteRelease(ctx, { id: request.params.id, actor: auditActorOf(request) });
      return reply.code(204).send(null);
    },
  );
};
