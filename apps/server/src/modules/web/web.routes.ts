import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { ERRORS, matchWebRoute, type RuntimeConfig } from '@bot/contracts';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';

export interface WebRoutesOptions {
  /** The built web app (`apps/web/dist`). */
  distDir: string;
  /** Overrides of the public runtime config; the build id always comes from `dist/build.json`. */
  config?: Partial<Omit<RuntimeConfig, 'buildId'>>;
}

const DEFAULT_BUILD_CHECK_INTERVAL_MS = 60_000;

const NO_CACHE = 'no-cache';
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Files that must be revalidated on every load so a new build is seen at once. */
const ALWAYS_REVALIDATE = new Set([
  '/index.html',
  '/sw.js',
  '/build.json',
  '/manifest.webmanifest',
  '/registerSW.js',
]);

/** Reads the id of the build on disk (written by the web build); `dev` when none is built. */
export async function readBuildId(distDir: string): Promise<string> {
  try {
    const parsed = JSON.parse(await readFile(path.join(distDir, 'build.json'), 'utf8')) as {
      buildId?: unknown;
    };
    return typeof parsed.buildId === 'string' && parsed.buildId ? parsed.buildId : 'dev';
  } catch {
    return 'dev';
  }
}

/** Paths the web app never answers: the API and the socket keep their own 404s. */
function isReservedPath(pathname: string): boolean {
  return /^\/(api|socket\.io)(\/|$)/.test(pathname);
}

/**
 * Hosts the built React app on the API's origin: `/config.json` (public runtime config), the static
 * files of `dist/`, the app shell (200) for every path of the route table — the public pages as the
 * build prerendered them (`dist/prerendered/`, docs/decisions/106) — and the same shell with HTTP 404
 * for any other path so the app's 404 page renders with a true status.
 */
export const webRoutes: FastifyPluginAsync<WebRoutesOptions> = async (app, options) => {
  const distDir = path.resolve(options.distDir);
  const runtime = {
    apiBaseUrl: options.config?.apiBaseUrl ?? '/api',
    socketUrl: options.config?.socketUrl ?? '',
    buildCheckIntervalMs: options.config?.buildCheckIntervalMs ?? DEFAULT_BUILD_CHECK_INTERVAL_MS,
  };

  await app.register(fastifyStatic, { root: distDir, serve: false, preCompressed: true });

  app.get('/config.json', async (_request, reply) => {
    const config: RuntimeConfig = { ...runtime, buildId: await readBuildId(distDir) };
    return reply.header('cache-control', 'no-store').send(config);
  });

  const sendShell = async (reply: FastifyReply, status: number) => {
    let html: Buffer;
    try {
      html = await readFile(path.join(distDir, 'index.html'));
    } catch {
      return reply
        .code(status === 200 ? 503 : status)
        .header('cache-control', NO_CACHE)
        .type('text/plain; charset=utf-8')
        .send("L'application web n'est pas construite : lancez `npm run build:web`.");
    }
    return reply.code(status).header('cache-control', NO_CACHE).type('text/html; charset=utf-8').send(html);
  };

  app.get('/*', async (request, reply) => {
    const rawPath = request.url.split('?')[0] ?? '/';
    let pathname: string;
    try {
      pathname = decodeURIComponent(rawPath);
    } catch {
      return sendShell(reply, 404);
    }
    if (isReservedPath(pathname)) {
      return reply.code(404).send({ error: ERRORS.NOT_FOUND.message, code: 'NOT_FOUND' });
    }

    // A file of the build (never a dot path such as /.vite/manifest.json, never outside dist).
    const file = path.join(distDir, pathname);
    if (
      pathname !== '/' &&
      !pathname.split('/').some((part) => part.startsWith('.')) &&
      file.startsWith(`${distDir}${path.sep}`)
    ) {
      const info = await stat(file).catch(() => undefined);
      if (info?.isFile()) {
        const relative = path.relative(distDir, file).split(path.sep).join('/');
        const cacheControl = ALWAYS_REVALIDATE.has(`/${relative}`)
          ? NO_CACHE
          : relative.startsWith('assets/')
            ? IMMUTABLE
            : 'public, max-age=3600';
        reply.header('cache-control', cacheControl);
        // The build wrote .br and .gz copies: the one the browser accepts is sent as is (preCompressed).
        return reply.sendFile(relative, distDir, { cacheControl: false });
      }
    }

    const route = matchWebRoute(pathname);
    // A public page prerendered by the build: its HTML paints before any script runs.
    if (route?.layout === 'landing') {
      const prerendered = `prerendered/${route.path === '/' ? 'index' : route.path.slice(1)}.html`;
      if ((await stat(path.join(distDir, prerendered)).catch(() => undefined))?.isFile()) {
        reply.header('cache-control', NO_CACHE);
        return reply.type('text/html; charset=utf-8').sendFile(prerendered, distDir, { cacheControl: false });
      }
    }
    return sendShell(reply, route ? 200 : 404);
  });
};
