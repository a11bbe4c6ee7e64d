import { execFileSync, spawnSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { isBuiltin } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { bundleServer, CLI_TASKS } from '../scripts/bundle.mjs';

/**
 * The deploy files, checked without a Docker engine (docs/operations.md, "Deploying with compose"):
 * the Dockerfile and compose.yaml parsed, the nginx templates rendered as the nginx image renders
 * them and tested by nginx itself with a self-signed certificate, and the compiled command-line
 * tasks run and their run-time imports compared with the server's runtime dependencies.
 */
const root = fileURLToPath(new URL('../../../', import.meta.url));
const serverDir = path.join(root, 'apps/server');
const read = (relative: string) => readFile(path.join(root, relative), 'utf8');

/** A tag that names one release: 24.21.0-bookworm-slim, 17.6-bookworm; never latest, 24, stable. */
const EXACT_TAG = /^[a-z0-9./_-]+:\d+\.\d+(\.\d+)?(-[a-z0-9.]+)*(@sha256:[0-9a-f]{64})?$/;
const SECRETS = [
  'ADMIN_PASSWORD',
  'DATABASE_URL',
  'SMTP_URL',
  'METRICS_TOKEN',
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'MASTER_KEY',
];

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'deploy-files-'));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

/** The Dockerfile's instructions, continuation lines joined, comments dropped, ARG defaults applied. */
function dockerInstructions(text: string): { keyword: string; args: string }[] {
  const logical = text
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('#'))
    .join('\n')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const defaults = new Map<string, string>();
  return logical.map((line) => {
    const [keyword = '', ...rest] = line.split(/\s+/);
    const args = rest.join(' ').replace(/\$\{(\w+)\}/g, (whole, name: string) => defaults.get(name) ?? whole);
    if (keyword.toUpperCase() === 'ARG') {
      const [name, value] = args.split('=');
      if (name && value) defaults.set(name, value);
    }
    return { keyword: keyword.toUpperCase(), args };
  });
}

describe('deploy/Dockerfile', () => {
  it('pins its base images, probes liveness on $PORT, and copies the context only behind a .dockerignore', async () => {
    const instructions = dockerInstructions(await read('deploy/Dockerfile'));
    const stages = new Set<string>();
    const froms = instructions.filter((instruction) => instruction.keyword === 'FROM');
    expect(froms.length).toBeGreaterThan(0);
    for (const { args } of froms) {
      const [image = '', , stage] = args.split(/\s+/);
      if (!stages.has(image)) expect(image).toMatch(EXACT_TAG);
      if (stage) stages.add(stage);
    }

    const healthChecks = instructions.filter((instruction) => instruction.keyword === 'HEALTHCHECK');
    expect(healthChecks).toHaveLength(1);
    const probe = healthChecks[0]!.args;
    expect(probe).toContain('/api/healthz');
    expect(probe).not.toContain('/api/readyz');
    expect(probe).toContain('process.env.PORT');
    expect(probe).not.toMatch(/\b3000\b/);

    // The command-line tasks and the server run compiled: no tsx, no TypeScript source in the image.
    const runtime = instructions.slice(instructions.lastIndexOf(froms.at(-1)!));
    expect(runtime.find((instruction) => instruction.keyword === 'CMD')?.args).toBe(
      '["node", "apps/server/dist/main.js"]',
    );
    expect(runtime.some((instruction) => /\btsx\b|\.ts\b/.test(instruction.args))).toBe(false);

    if (
      instructions.some((instruction) => instruction.keyword === 'COPY' && /^\.\s+\.$/.test(instruction.args))
    ) {
      const ignored = (await read('.dockerignore'))
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line && !line.startsWith('#'));
      for (const pattern of ['**/node_modules', 'data', '.git', '.cluster', '*.master-key', 'deploy/secrets'])
        expect(ignored).toContain(pattern);
    }
  });

  it('builds the SDK and ships its tarball where the server serves it from (/api/sdk)', async () => {
    const instructions = dockerInstructions(await read('deploy/Dockerfile'));
    const runs = instructions.filter((instruction) => instruction.keyword === 'RUN').map(({ args }) => args);
    expect(runs.some((args) => args.includes('npm run build --workspace @bot/bot-agent'))).toBe(true);
    const copies = instructions
      .filter((instruction) => instruction.keyword === 'COPY')
      .map(({ args }) => args);
    expect(copies).toContain(
      '--from=build /app/apps/bot-agent/dist/bot-sdk.tgz apps/bot-agent/dist/bot-sdk.tgz',
    );
  });
});

describe('deploy/compose.yaml', () => {
  interface Service {
    image?: string;
    command?: string[];
    restart?: string;
    environment?: Record<string, string>;
    secrets?: string[];
    volumes?: string[];
    depends_on?: Record<string, { condition: string }>;
  }
  let compose: { services: Record<string, Service>; secrets: Record<string, { file: string }> };
  let nodes: [string, Service][];
  beforeAll(async () => {
    compose = parseYaml(await read('deploy/compose.yaml'), { merge: true });
    nodes = Object.entries(compose.services).filter(([name]) => /^node\d+$/.test(name));
  });

  it('names every image by an exact version', () => {
    for (const [name, service] of Object.entries(compose.services))
      expect(service.image, name).toMatch(EXACT_TAG);
  });

  it('gives every secret as a compose secret read through its _FILE variable, none as a plain variable', () => {
    expect(nodes).toHaveLength(3);
    for (const [name, service] of [...nodes, ['migrate', compose.services.migrate!] as const]) {
      const environment = service.environment ?? {};
      for (const secret of SECRETS) expect(environment[secret], `${name} ${secret}`).toBeUndefined();
      for (const [variable, value] of Object.entries(environment).filter(([key]) => key.endsWith('_FILE'))) {
        const secret = value.replace('/run/secrets/', '');
        expect(service.secrets, `${name} ${variable}`).toContain(secret);
        expect(compose.secrets[secret]?.file, secret).toBeTruthy();
      }
    }
    for (const [name, service] of nodes)
      for (const secret of SECRETS)
        expect(service.environment?.[`${secret}_FILE`], `${name} ${secret}_FILE`).toBeTruthy();
    const { postgres } = compose.services;
    expect(postgres?.environment?.POSTGRES_PASSWORD).toBeUndefined();
    expect(postgres?.environment?.POSTGRES_PASSWORD_FILE).toBe('/run/secrets/postgres_password');
  });

  it('migrates once, in a one-shot service every node waits for', () => {
    const migrate = compose.services.migrate!;
    expect(migrate.command).toEqual(['node', 'apps/server/dist/cli/migrate.js']);
    expect(migrate.restart).toBe('no');
    for (const [name, service] of nodes)
      expect(service.depends_on?.migrate, name).toEqual({ condition: 'service_completed_successfully' });
  });

  it('keeps the mails in one place: SMTP, or one outbox volume shared by every node', () => {
    for (const [name, service] of nodes) {
      expect(service.environment?.SMTP_URL_FILE, name).toBeTruthy();
      expect(service.volumes, name).toContain('outbox:/data/outbox');
    }
  });
});

describe('deploy/nginx', () => {
  it('renders into a configuration nginx accepts, with the TLS site and an access log', async () => {
    const certificate = path.join(tmp, 'fullchain.pem');
    const key = path.join(tmp, 'privkey.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=bots.example.test',
        '-keyout',
        key,
        '-out',
        certificate,
      ],
      { stdio: 'ignore' },
    );
    // What the nginx image's envsubst does with compose.yaml's environment.
    const env: Record<string, string> = {
      NGINX_LISTEN: '127.0.0.1:8080',
      UPSTREAM_SERVERS: 'server 127.0.0.1:3001 max_fails=1 fail_timeout=5s;',
      TLS_SERVER_NAME: 'bots.example.test',
      TLS_CERTIFICATE: certificate,
      TLS_CERTIFICATE_KEY: key,
    };
    await mkdir(path.join(tmp, 'conf.d'));
    const render = (text: string) =>
      text.replace(/\$\{(\w+)\}/g, (whole, name: string) => env[name] ?? whole);
    for (const template of ['bot-platform.conf', 'tls.conf']) {
      const rendered = render(await read(`deploy/nginx/${template}.template`));
      expect(rendered, template).not.toContain('${');
      await writeFile(path.join(tmp, 'conf.d', template), rendered);
    }
    await copyFile(
      path.join(root, 'deploy/nginx/bot-platform.locations.conf'),
      path.join(tmp, 'bot-platform.locations.conf'),
    );
    // The image's paths, moved into the temporary folder.
    const main = (await read('deploy/nginx/nginx.conf'))
      .replace('include /etc/nginx/conf.d/*.conf;', `include ${tmp}/conf.d/*.conf;`)
      .replace(/\/var\/run\/nginx\.pid/, path.join(tmp, 'nginx.pid'))
      .replaceAll('/var/log/nginx/', `${tmp}/`);
    expect(main).toMatch(/access_log \S+access\.log platform/);
    await writeFile(path.join(tmp, 'nginx.main'), main);

    const check = spawnSync('nginx', ['-t', '-p', tmp, '-c', path.join(tmp, 'nginx.main')], {
      encoding: 'utf8',
    });
    expect(check.stderr).toContain('test is successful');
    expect(check.status).toBe(0);
    // The access log's retention on a host (Docker rotates the container's own: compose.yaml).
    expect(await read('deploy/nginx/logrotate.conf')).toMatch(/rotate 14[\s\S]*USR1/);
  });
});

describe('the compiled command-line tasks', () => {
  // The image installs the server's runtime dependencies and nothing else (docs/architecture.md,
  // "Packages"): each one must be imported by what runs there, and what runs there imports no other.
  it('import at run time exactly the server’s runtime dependencies besides Node (the image has no dev dependency)', async () => {
    const manifest = JSON.parse(await read('apps/server/package.json')) as {
      dependencies: Record<string, string>;
    };
    const packageOf = (specifier: string) =>
      specifier
        .split('/')
        .slice(0, specifier.startsWith('@') ? 2 : 1)
        .join('/');
    const imported = new Set<string>();
    for (const task of ['main', ...CLI_TASKS]) {
      const { externalImports } = await bundleServer({
        entryPoint: path.join(serverDir, task === 'main' ? 'src/main.ts' : `src/cli/${task}.ts`),
        outfile: path.join(tmp, 'bundles', `${task}.js`),
      });
      const packages = externalImports.filter((specifier) => !isBuiltin(specifier)).map(packageOf);
      for (const name of packages) imported.add(name);
      expect(
        packages.filter((name) => !(name in manifest.dependencies)),
        task,
      ).toEqual([]);
    }
    // Our workspace packages are compiled in (scripts/bundle.mjs): declared, never imported at run time.
    const unused = Object.keys(manifest.dependencies).filter(
      (name) => !name.startsWith('@bot/') && !imported.has(name),
    );
    expect(unused).toEqual([]);
  });

  // One database task and one key task run for real (each embedded-database start costs ~10 s here;
  // backup and restore share migrate's imports and bundle, checked above).
  it('run from dist/cli: migrate applies the migrations and exits 0, keys:root writes its key', async () => {
    // The embedded database in a folder of its own, even in the suite's PostgreSQL pass (whose
    // DATABASE_URL points at a database the harness already migrated).
    const { DATABASE_URL: _sharedDatabase, ...inherited } = process.env;
    const env = { ...inherited, DATA_DIR: path.join(tmp, 'data'), LOG_LEVEL: 'warn' };
    const run = (task: string, ...args: string[]) =>
      spawnSync(process.execPath, [path.join(serverDir, `dist/cli/${task}.js`), ...args], {
        env,
        encoding: 'utf8',
      });
    const migrated = run('migrate');
    expect(migrated.stderr).toBe('');
    expect(migrated.status).toBe(0);
    expect(migrated.stdout).toMatch(/migration appliquée : 0000_[\s\S]*Base à jour/);
    const rootKey = run('keys-root', '--out', path.join(tmp, 'racine.jwk'));
    expect(rootKey.stdout).toContain('Clé racine privée écrite');
    expect(rootKey.status).toBe(0);
  }, 60_000);
});
