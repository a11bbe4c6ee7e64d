import '@bot/contracts/zod-locale';
import { constants as zlibConstants } from 'node:zlib';
import { APP_NAME, ERRORS } from '@bot/contracts';
import compress from '@fastify/compress';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import pino, { type DestinationStream } from 'pino';
import { OPERATION_EXAMPLES, OPERATION_SUMMARIES } from './api-operations.ts';
import type { AppConfig } from './config.ts';
import type { AppContext, RouteContext } from './context.ts';
import { guardApiInput, keepApiAnswersPrivate, trackRouteMethods } from './core/api-guards.ts';
import { type BackgroundLoop, BackgroundLoops } from './core/background.ts';
import { trustProxyRule, warnWhenEveryPeerIsAProxy } from './core/client-address.ts';
import { type Clock, systemClock } from './core/clock.ts';
import { closeConnectionsOnDrain } from './core/connection-drain.ts';
import { answerClientError, answerRouterError, installErrorHandler } from './core/error-handler.ts';
import { EventBus } from './core/events.ts';
import { healthRoutes } from './core/health.routes.ts';
import { assertInstallationReady } from './core/installation.ts';
import { LoadMonitor } from './core/load-monitor.ts';
import { errorWithoutQueryValues } from './core/log-serializers.ts';
import { createMailer } from './core/mailer.ts';
import { loadMasterKey } from './core/master-key.ts';
import { metricsRoutes } from './core/metrics.routes.ts';
import { createMetrics, measureHttpLatency } from './core/metrics.ts';
import { PRODUCT_VERSION } from './core/paths.ts';
import { tightenTree } from './core/private-files.ts';
import { RateLimiter } from './core/rate-limiter.ts';
import { openRedis, waitForRedis } from './core/redis.ts';
import { logRequests } from './core/request-log.ts';
import { documentAnswers, documentTransform, SECURITY_SCHEMES } from './core/route-docs.ts';
import { addSecurityHeaders } from './core/security-headers.ts';
import type { LastSaveStep } from './core/shutdown.ts';
import { type Database, observeDatabasePool, openDatabase } from './db/client.ts';
import { lockDataDir } from './db/data-dir-lock.ts';
import { createPermissionCache, createUserCache } from './modules/access/index.ts';
import { adminUsersRoutes } from './modules/admin-users/index.ts';
import {
  alertsRoutes,
  createDiscordOutbox,
  emailChannelHealth,
  evaluateAlerts,
  fleetAlertsRoutes,
  pruneNotifications,
} from './modules/alerts/index.ts';
import { auditRoutes } from './modules/audit/index.ts';
import { authRoutes, createSessionCache, writeSessionTouches } from './modules/auth/index.ts';
import { botLogRoutes, purgeBotLog } from './modules/bot-log/index.ts';
import { botTimelineRoutes } from './modules/bot-timeline/index.ts';
import { ActivityRecorder, botRoutes } from './modules/bots/index.ts';
import { catalogRoutes } from './modules/catalog/index.ts';
import { commandsRoutes, expireBotCommands } from './modules/commands/index.ts';
import { idempotency } from './modules/idempotency/index.ts';
import {
  establishDevelopmentKeySet,
  jwksRoutes,
  keySetProblems,
  type RootKey,
  signingKeysAdminRoutes,
} from './modules/licensing/index.ts';
import { createMailOutbox } from './modules/mail/index.ts';
import { createMaintenanceCache, maintenanceWindowsRoutes } from './modules/maintenance-windows/index.ts';
import { meRoutes } from './modules/me/index.ts';
import { expireStaleOrders, ordersRoutes } from './modules/orders/index.ts';
import { createSandboxProvider, createStripeProvider, paymentsRoutes } from './modules/payments/index.ts';
import { permissionsAdminRoutes, rolesRoutes } from './modules/permissions-admin/index.ts';
import { createRealtimeHub, protocolDocsRoutes } from './modules/realtime/index.ts';
import {
  ADOPTION_SAMPLE_MS,
  advanceRollouts,
  checkRollouts,
  expireStaleDrafts,
  releasesRoutes,
  sampleVersions,
  updateFor,
} from './modules/releases/index.ts';
import { seedPermissions } from './modules/roles/index.ts';
import { sdkRoutes } from './modules/sdk/index.ts';
import {
  createSettingsCache,
  maintenanceGuard,
  publicSettingsRoutes,
  settingsAdminRoutes,
} from './modules/settings/index.ts';
import { usersOnlineRoutes } from './modules/users-online/index.ts';
import { vouchersRoutes } from './modules/vouchers/index.ts';
import { webRoutes } from './modules/web/index.ts';
import { whitelistRoutes } from './modules/whitelist/index.ts';
import { worldRoutes } from './modules/world/index.ts';
import { pruneOldRows, RETENTION_PRUNE_EVERY_MS } from './retention.ts';
import { openSecretsAtRest } from './secrets-at-rest.ts';
import { sessionAuthorityOf } from './session-authority.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The context without its database and events: routes call use cases (`RouteContext`). */
    ctx: RouteContext;
    /** What a forced exit still tries to save (core/shutdown.ts): the bot history, the database. */
    lastSave: LastSaveStep[];
  }
}

export interface BuildAppOptions {
  config: AppConfig;
  /** An already opened database (tests load a migrated template); opened from config otherwise. */
  database?: Database;
  /** Skip migrations when the database is known to be migrated (test templates). */
  skipMigrations?: boolean;
  /** Where the JSON log lines go (standard output by default; tests read them). */
  logDestination?: DestinationStream;
  /**
   * The offline root key, held for this run only by `npm run keys:rotate` (and tests of a public
   * installation): it is about to sign the key set, so the start does not require one (decision 912).
   */
  rootKey?: RootKey;
  /** The system's clock unless a test stands at the edge of a minute or an hour. */
  clock?: Clock;
}

const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  '*.password',
  '*.token',
  '*.accessKey',
  '*.currentPassword',
  '*.newPassword',
];

/** Builds the whole server, wired in one place; `main.ts` listens, tests call this directly. */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config } = options;
  const log = pino(
    { level: config.logLevel, redact: REDACTED_PATHS, serializers: { err: errorWithoutQueryValues } },
    options.logDestination,
  );
  // The embedded database belongs to one process: lock its folder before opening it.
  const releaseDataDir =
    !options.database && !config.databaseUrl ? await lockDataDir(config.dataDir, log) : undefined;
  // What an older version or another umask left readable by every local user is closed first.
  await tightenTree(config.dataDir);
  const database =
    options.database ??
    openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      timeouts: config.databaseTimeouts,
      onIdleError: (error) => log.warn({ err: error }, 'connexion à la base perdue (remplacée)'),
    });
  if (!options.skipMigrations) {
    const applied = await database.migrate();
    for (const name of applied) log.info({ migration: name }, `migration appliquée : ${name}`);
  }
  log.info({ version: PRODUCT_VERSION }, `version ${PRODUCT_VERSION}`);
  // The secrets at rest are sealed under a master key kept outside the data (core/master-key.ts):
  // a copy of the data started with another key stops below, before serving anything.
  let sealingKey: Buffer;
  // A public installation names everything it lacks in one refusal (core/installation.ts); the
  // checks that read the database add theirs to the configuration's.
  try {
    assertInstallationReady(
      [...config.installation.problems, ...(options.rootKey ? [] : await keySetProblems(database, config))],
      config.installation.isLoopback,
    );
    sealingKey = await openSecretsAtRest(database, {
      masterKey: loadMasterKey(config.masterKey),
      source: config.masterKey,
      log,
    });
  } catch (error) {
    await database.close();
    await releaseDataDir?.();
    throw error;
  }

  // Several nodes share Redis; a node that cannot reach it yet starts anyway and serves alone.
  const redis = config.redisUrl ? openRedis(config.redisUrl, log) : undefined;
  if (redis && !(await waitForRedis(redis, 3_000)))
    log.warn('Redis injoignable au démarrage : ce nœud démarre seul');

  const cleanups: (() => Promise<void> | void)[] = [];
  const events = new EventBus(log);
  const metrics = createMetrics();
  const parts: Omit<AppContext, 'live' | 'activity'> = {
    config,
    db: database.db,
    engine: database.engine,
    events,
    limiter: new RateLimiter(config.rateLimits, redis?.commands),
    redis,
    mailer: createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir, log }),
    log,
    metrics,
    clock: options.clock ?? systemClock,
    load: new LoadMonitor(config.load, log, metrics.registry),
    // Stripe when its keys are configured, the embedded sandbox otherwise.
    payments: config.stripe ? createStripeProvider(config.stripe, config.publicUrl) : createSandboxProvider(),
    sealingKey,
    sessionCache: createSessionCache(events),
    permissionCache: createPermissionCache(events),
    userCache: createUserCache(events),
    settingsCache: createSettingsCache(events),
    maintenanceCache: createMaintenanceCache(events),
    onClose: (cleanup) => cleanups.push(cleanup),
  };
  // The real-time hub is built from the context it completes, right after the HTTP server (below).
  const ctx = parts as AppContext;
  ctx.activity = new ActivityRecorder(ctx); // the bots module's, which the hub feeds (decision 013)

  const app = Fastify({
    loggerInstance: log as FastifyBaseLogger,
    bodyLimit: config.bodyLimitBytes,
    trustProxy: trustProxyRule(config.trustProxy),
    connectionTimeout: 30_000,
    requestTimeout: 30_000,
    keepAliveTimeout: 72_000,
    frameworkErrors: answerRouterError,
    clientErrorHandler: (error, socket) => answerClientError(ctx, error, socket),
    // One line per request instead of two: logRequests below.
    logController: new LogController({ disableRequestLogging: true }),
  });
  // Socket.IO on the same HTTP server, path /socket.io (closed in preClose, before the server); the
  // one part built from the context it completes, before anything else uses the context.
  // Past its open-file limit a process cannot even answer: Node closes connections beyond this.
  if (ctx.load.maxConnections) app.server.maxConnections = ctx.load.maxConnections;
  const realtime = createRealtimeHub(ctx, app.server, redis, events);
  ctx.live = realtime.live;
  // During the drain answers close their connections; what stays open late is cut.
  closeConnectionsOnDrain(app);
  await seedPermissions(ctx);
  // A loopback installation signs its key set with a development root of its own, and says so.
  await establishDevelopmentKeySet(ctx);
  ctx.onClose(() => writeSessionTouches(ctx));

  app.decorate('ctx', ctx as RouteContext);
  app.decorate('sessionAuthority', sessionAuthorityOf(ctx));
  let databaseClosed: Promise<void> | undefined;
  const closeDatabase = () => (databaseClosed ??= database.close());
  const closeRealtime = () => realtime.close().then(() => ctx.activity.flush());
  app.decorate('lastSave', [
    { what: 'l’historique des bots en mémoire', run: closeRealtime },
    { what: 'la fermeture de la base', run: closeDatabase },
  ]);
  app.decorateRequest('auth', null);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandler(app);
  logRequests(app, log as FastifyBaseLogger);
  measureHttpLatency(app, ctx.metrics);
  warnWhenEveryPeerIsAProxy(app, config);
  observeDatabasePool(ctx.metrics, database);

  addSecurityHeaders(app, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        connectSrc: ["'self'"],
        workerSrc: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
  });
  // Dynamic answers (JSON lists, the app shell, CSV exports) compressed above 1 KB; the web app's
  // files come precompressed from the build (their Content-Encoding makes this plugin skip them).
  await app.register(compress, {
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } },
  });
  // CORS stays closed: the web app is served from the same origin as the API.
  await app.register(swagger, {
    openapi: {
      info: { title: `API ${APP_NAME}`, version: '1.0.0' },
      servers: [{ url: '/' }],
      components: { securitySchemes: SECURITY_SCHEMES },
    },
    transform: documentTransform({ summaries: OPERATION_SUMMARIES, examples: OPERATION_EXAMPLES }),
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
  await app.register(protocolDocsRoutes); // the socket protocol's AsyncAPI document, beside it

  await app.register(
    async (api) => {
      documentAnswers(api); // first: its hook documents every route registered below
      guardApiInput(api);
      keepApiAnswersPrivate(api);
      const allowedMethods = trackRouteMethods(api);
      api.setNotFoundHandler((request, reply) => {
        const allowed = allowedMethods(request);
        if (allowed.length > 0) {
          return reply
            .status(405)
            .header('Allow', allowed.join(', '))
            .send({ error: ERRORS.METHOD_NOT_ALLOWED.message, code: 'METHOD_NOT_ALLOWED' });
        }
        return reply.status(404).send({ error: ERRORS.NOT_FOUND.message, code: 'NOT_FOUND' });
      });
      await api.register(maintenanceGuard); // first: its hook must cover every route below
      await api.register(idempotency); // before the routes: its hooks cover every signed-in POST
      await api.register(healthRoutes, { database });
      await api.register(metricsRoutes);
      await api.register(authRoutes);
      await api.register(meRoutes);
      await api.register(publicSettingsRoutes);
      // domain modules: register each here, one line per module
      await api.register(catalogRoutes);
      await api.register(ordersRoutes);
      await api.register(paymentsRoutes);
      await api.register(vouchersRoutes);
      await api.register(whitelistRoutes);
      await api.register(adminUsersRoutes);
      await api.register(rolesRoutes);
      await api.register(permissionsAdminRoutes);
      await api.register(auditRoutes);
      await api.register(settingsAdminRoutes);
      await api.register(worldRoutes);
      await api.register(botRoutes, { offerUpdate: updateFor });
      await api.register(botTimelineRoutes);
      await api.register(commandsRoutes);
      await api.register(botLogRoutes);
      await api.register(usersOnlineRoutes);
      await api.register(releasesRoutes);
      await api.register(sdkRoutes, { distDir: config.sdkDistDir });
      await api.register(alertsRoutes);
      await api.register(fleetAlertsRoutes);
      await api.register(maintenanceWindowsRoutes);
      await api.register(signingKeysAdminRoutes);
    },
    { prefix: '/api' },
  );

  // Every loop of the node, once everything is wired; stopped before the hub closes and writes
  // what it still buffers.
  const loops = startBackgroundWork(ctx, realtime.loops);
  app.addHook('preClose', () => {
    loops.stop();
    return closeRealtime();
  });

  // The lease verification keys, at the root of the site where JOSE tooling looks for them.
  await app.register(jwksRoutes);
  // web app hosting
  await app.register(webRoutes, { distDir: config.webDistDir });

  app.addHook('onClose', async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    ctx.mailer.close();
    await redis?.close();
    await closeDatabase();
    // PGlite gives the files it created while serving mode 0666 (core/private-files.ts).
    await tightenTree(config.dataDir);
    await releaseDataDir?.();
  });
  return app;
}

/**
 * Every background loop and outbox worker of the node, started here and stopped on close. Mails
 * and Discord messages leave through durable outboxes (use cases only queue them): each is drained
 * at once when a commit queues one, and polled for retries and what other nodes queued. Alerts are
 * evaluated once per cluster (decision 902).
 */
function startBackgroundWork(ctx: AppContext, realtimeLoops: readonly BackgroundLoop[]): BackgroundLoops {
  const { config, events, activity } = ctx;
  const loops = new BackgroundLoops(ctx.log);
  const mail = createMailOutbox(ctx, emailChannelHealth(ctx));
  const discord = createDiscordOutbox(ctx);
  ctx.onClose(events.on('mail.queued', mail.drain));
  ctx.onClose(events.on('discord.queued', discord.drain));
  loops.every('envoi des mails', config.mail.pollMs, mail.drain);
  loops.every('envoi des messages Discord', config.alerts.discordPollMs, discord.drain);
  loops.every('évaluation des alertes', config.alerts.evaluateEveryMs, () => evaluateAlerts(ctx));
  // In-app notifications keep `notificationRetentionDays` (decision 907).
  loops.every('purge des notifications', config.alerts.pruneEveryMs, () => pruneNotifications(ctx));
  loops.every('expiration des commandes', 60_000, () => expireStaleOrders(ctx));
  // Drafts also expire before the staff list and a new draft: this sweep only catches the rest.
  loops.every('expiration des brouillons de version', 10 * 60_000, () => expireStaleDrafts(ctx));
  // Remote commands the agent did not acknowledge in time (decision 208).
  loops.every('expiration des commandes aux bots', config.commands.sweepMs, () => expireBotCommands(ctx));
  loops.every('écriture de l’historique des bots', config.realtime.historyFlushMs, activity.writeFinished);
  // The node's headroom (issue 36): readiness and the bots' admission read it.
  loops.every('mesure de la charge', config.load.sampleMs, () => ctx.load.sample());
  ctx.onClose(() => ctx.load.close());
  // Staged rollouts (decision 910): due steps, the automatic halt, the versions' adoption.
  loops.every('étapes des déploiements', config.releases.rolloutCheckMs, () => advanceRollouts(ctx));
  loops.every('santé des déploiements', config.releases.rolloutCheckMs, () => checkRollouts(ctx));
  loops.every('adoption des versions', ADOPTION_SAMPLE_MS, () => sampleVersions(ctx));
  // The bots' journals keep `botLogRetentionDays` (decision 209).
  loops.every('purge du journal des bots', config.botLog.purgeEveryMs, () => purgeBotLog(ctx));
  // Every table that only grows keeps its retention setting (retention.ts, docs/capacity.md).
  loops.every('purge des données anciennes', RETENTION_PRUNE_EVERY_MS, () => pruneOldRows(ctx));
  // The real-time module's loops (modules/realtime/realtime.loops.ts names them).
  for (const loop of realtimeLoops) loops.every(loop.name, loop.everyMs, () => loop.run());
  return loops;
}
