import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain JavaScript script of the repository (npm start runs it before any build)
import { root, staleParts } from '../../../scripts/ensure-built.mjs';

const run = promisify(execFile);
const agentDir = fileURLToPath(new URL('..', import.meta.url));
const tsc = fileURLToPath(new URL('../../../node_modules/typescript/bin/tsc', import.meta.url));
/** Plain Node: none of the repository's loaders or conditions reach the consumer. */
const { NODE_OPTIONS: _repositoryOptions, ...plainEnv } = process.env;

/** A bot maker's TypeScript file, with nothing but the package's own declarations to go on. */
const CONSUMER_TS = `import { createBotClient, type BotClient, type BotClientOptions } from '@bot/bot-agent';

const options: BotClientOptions = {
  serverUrl: 'https://bots.example.fr',
  trustRoot: { kty: 'OKP', crv: 'Ed25519', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' },
  accessKey: 'cle',
  hwid: 'pc-1',
  version: '1.0.0',
};
const bot: BotClient = createBotClient(options);
bot.on('fatal', (error) => console.error(error.code, error.message));
bot.report({ accounts: [] });
`;

describe('the SDK as a package (issue 46.1)', () => {
  let consumer: string;

  beforeAll(async () => {
    consumer = await mkdtemp(path.join(os.tmpdir(), 'sdk-consumer-'));
  });
  afterAll(() => rm(consumer, { recursive: true, force: true }));

  it('one tarball installs alone in an empty folder, runs on plain Node and type-checks under NodeNext strict', async () => {
    // `npm run build` packs the same files; built once for the platform, and again only when stale.
    if (staleParts(root).includes('sdk'))
      await run('npm', ['run', 'build', '--workspace', '@bot/bot-agent'], { cwd: root });
    const { stdout } = await run(
      'npm',
      ['pack', '--json', '--ignore-scripts', '--pack-destination', consumer],
      {
        cwd: agentDir,
      },
    );
    const [packed] = JSON.parse(stdout) as { filename: string }[];
    await writeFile(
      path.join(consumer, 'package.json'),
      JSON.stringify({ name: 'mon-bot', private: true, type: 'module' }),
    );
    await run(
      'npm',
      ['install', '--prefer-offline', '--no-audit', '--no-fund', `./${packed!.filename}`, '@types/node@24'],
      {
        cwd: consumer,
        env: plainEnv,
      },
    );

    const imported = await run(
      process.execPath,
      ['-e', "import('@bot/bot-agent').then((sdk) => console.log(typeof sdk.createBotClient))"],
      { cwd: consumer, env: plainEnv },
    );
    expect(imported.stdout.trim()).toBe('function');

    await writeFile(path.join(consumer, 'bot.ts'), CONSUMER_TS);
    const compilerOptions = { module: 'NodeNext', strict: true, noEmit: true, types: ['node'] };
    await writeFile(
      path.join(consumer, 'tsconfig.json'),
      JSON.stringify({ compilerOptions, files: ['bot.ts'] }),
    );
    await expect(
      run(process.execPath, [tsc, '-p', consumer], { cwd: consumer, env: plainEnv }),
    ).resolves.toBeDefined();
  });
});
