import { SDK_PATH, sdkPackageAnswer, sdkTarballName } from '@bot/contracts';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../core/errors.ts';
import { type BuiltSdk, readBuiltSdk } from './built-sdk.ts';

export interface SdkRoutesOptions {
  /** The SDK's build (`apps/bot-agent/dist`). */
  distDir: string;
}

const tags = ['sdk'];
/** The announcement changes with an upgrade of the platform: caches keep it a few minutes. */
const ANSWER_MAX_AGE_SECONDS = 300;
/** A version's tarball only changes when rebuilt: a day, revalidated by its hash (the ETag). */
const TARBALL_MAX_AGE_SECONDS = 86_400;

/**
 * `/api/sdk`: the bot SDK's tarball for bot makers, with its version and SHA-256, public (the SDK
 * holds no secret: the root of trust is each bot maker's own option). Read once, when first asked:
 * `npm start` rebuilds it before starting when its sources changed (scripts/ensure-built.mjs).
 */
export const sdkRoutes: FastifyPluginAsyncZod<SdkRoutesOptions> = async (app, { distDir }) => {
  let built: Promise<BuiltSdk> | undefined;
  // Not built yet: read again next time rather than refused until a restart.
  const builtSdk = () =>
    (built ??= readBuiltSdk(distDir).catch((error: unknown) => {
      built = undefined;
      throw error;
    }));

  app.get(SDK_PATH, { schema: { tags, response: { 200: sdkPackageAnswer } } }, async (_request, reply) => {
    const { answer } = await builtSdk();
    reply.header('cache-control', `public, max-age=${ANSWER_MAX_AGE_SECONDS}`);
    return answer;
  });

  app.get(
    `${SDK_PATH}/:file`,
    {
      compress: false,
      schema: {
        tags,
        params: z.object({ file: z.string() }),
        response: {
          200: {
            description: 'Le SDK (tarball npm : npm install ./bot-sdk-<version>.tgz)',
            content: { 'application/gzip': { schema: z.string() } },
          },
        },
      },
    },
    async (request, reply) => {
      const sdk = await builtSdk();
      if (request.params.file !== sdkTarballName(sdk.answer.version)) throw new AppError('NOT_FOUND');
      return sendTarball(reply, sdk);
    },
  );
};

/** The bytes as built (`compress: false` on the route): the announced SHA-256 is theirs. */
function sendTarball(reply: FastifyReply, { answer, bytes }: BuiltSdk): FastifyReply {
  return reply
    .header('cache-control', `public, max-age=${TARBALL_MAX_AGE_SECONDS}`)
    .header('etag', `"${answer.sha256}"`)
    .header('content-disposition', `attachment; filename="${sdkTarballName(answer.version)}"`)
    .type('application/gzip')
    .send(bytes);
}
