import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { ensureFirstAdministrator } from './core/bootstrap.ts';

/** config -> buildApp -> listen -> close on signals. */
async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
  const app = await buildApp({ config });
  const admin = await ensureFirstAdministrator(app.ctx);
  if (admin?.password) {
    // Printed once, on the console only (not through the logger, which may ship logs elsewhere).
    console.log(
      `\n  Premier administrateur créé\n  identifiant : ${admin.username}\n  mot de passe : ${admin.password}\n  (notez-le : il ne sera plus affiché)\n`,
    );
  }
  await app.listen({ port: config.port, host: config.host });
  console.log(
    `  Plateforme prête : http://${config.host}:${config.port}/  (API : /api, documentation : /api/docs)`,
  );

  let closing = false;
  const close = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'arrêt en cours');
    const timer = setTimeout(() => process.exit(1), 10_000).unref();
    await app.close();
    clearTimeout(timer);
    process.exit(0);
  };
  process.on('SIGTERM', () => void close('SIGTERM'));
  process.on('SIGINT', () => void close('SIGINT'));
}

void main();
