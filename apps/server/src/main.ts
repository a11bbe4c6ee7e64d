import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { type AppConfig, loadConfig } from './config.ts';
import { PRODUCT_VERSION } from './core/paths.ts';
import { claimPort, releasePort } from './core/port-claim.ts';
import { usePrivateUmask } from './core/private-files.ts';
import { closeGracefully, SHUTDOWN_GRACE_MS } from './core/shutdown.ts';
import { explainStartupError } from './core/startup-errors.ts';
import { terminalSafeStdout, tolerateClosedTerminal } from './core/terminal-output.ts';
import { ensureFirstAdministrator } from './modules/users/index.ts';

let app: FastifyInstance | undefined;

/**
 * config -> claim the port -> buildApp (migrations) -> listen; SIGTERM/SIGINT/SIGHUP drain and exit 0.
 * Every start-up failure an operator can fix is one French paragraph and exit code 1.
 */
async function main(config: AppConfig): Promise<void> {
  const placeholder = await claimPort(config.port, config.host);
  app = await buildApp({ config, logDestination: terminalSafeStdout });
  const admin = await ensureFirstAdministrator(app.ctx);
  if (admin?.password) {
    // Printed once, on the console only (not through the logger, which may ship logs elsewhere).
    console.log(
      `\n  Premier administrateur créé\n  identifiant : ${admin.username}\n  mot de passe : ${admin.password}\n  (notez-le : il ne sera plus affiché)\n`,
    );
  }
  await releasePort(placeholder);
  await app.listen({
    port: config.port,
    host: config.host,
    listenTextResolver: (address) => `serveur à l’écoute sur ${address}`,
  });
  console.log(
    `  Plateforme prête (version ${PRODUCT_VERSION}) : http://${config.host}:${config.port}/  (API : /api, documentation : /api/docs)`,
  );
}

function failStartup(error: unknown, config: AppConfig | undefined): never {
  const explained = explainStartupError(error, {
    dataDir: config?.dataDir ?? process.env.DATA_DIR ?? './data',
    port: config?.port ?? Number(process.env.PORT ?? 3000),
    host: config?.host ?? process.env.HOST ?? '127.0.0.1',
  });
  console.error(
    `\n  Le serveur n’a pas pu démarrer.\n  ${explained ?? `Erreur inattendue : ${(error as Error)?.message ?? error}`}\n`,
  );
  const level = process.env.LOG_LEVEL;
  if (!explained || level === 'debug' || level === 'trace') console.error(error);
  process.exit(1);
}

// A rejected promise nobody handled is a bug to log, not a reason to stop serving everyone.
process.on('unhandledRejection', (reason) => {
  if (app) app.log.error({ err: reason }, 'promesse rejetée sans traitement (le serveur continue)');
  else console.error('promesse rejetée sans traitement', reason);
});

// A closed terminal must not hang the drain it starts (core/terminal-output.ts).
tolerateClosedTerminal();

// SIGINT/SIGTERM/SIGHUP drain (a repeated Ctrl-C does not cut the drain short, a third press does);
// an uncaught exception drains too, since state may be corrupt. Under `npm start` (npm sets
// npm_lifecycle_event) the server also drains when npm goes: nothing outlives `npm start`.
closeGracefully({
  delay: SHUTDOWN_GRACE_MS,
  log: () => app?.log,
  close: async ({ err }) => {
    if (err) app?.log.error({ err }, 'erreur fatale : arrêt');
    // Fastify stops accepting; the hub tells sockets to reconnect elsewhere and flushes bot
    // history; requests in flight finish, each answer closing its connection (connections still
    // open late are cut: core/connection-drain.ts); the database closes.
    await app?.close();
    app?.log.info('arrêt terminé : requêtes servies, sockets fermés, base fermée');
  },
  lastSave: () => app?.lastSave ?? [],
  watchParent: process.env.npm_lifecycle_event !== undefined,
});

// Everything this process writes (database, outbox, master key) is its user's only (docs/security.md).
usePrivateUmask();

let config: AppConfig;
try {
  config = loadConfig();
} catch (error) {
  failStartup(error, undefined);
}
main(config).catch((error: unknown) => failStartup(error, config));
