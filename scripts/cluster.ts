// `npm run cluster`: the scale-out topology on this machine, for trials — PostgreSQL, Redis, three
// nodes and nginx in front — plus simulated bots connected through nginx (so the admin map shows
// bots held by every node), then prints the one URL to open. Ctrl-C stops everything.
// CLUSTER_NODES (3), CLUSTER_PORT (8080, nginx) and CLUSTER_DEMO_BOTS (60; 0: none) change the defaults;
// CLUSTER_OVERLOADED_NODE=3 makes that node call itself overloaded for good (thresholds 0), to watch
// nginx place new bots on the others (docs/capacity.md).
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { startLocalCluster } from '../deploy/local-cluster.ts';
import { ensureBuilt, root } from './ensure-built.mjs';

const demoBots = Number(process.env.CLUSTER_DEMO_BOTS ?? 60);
const workDir = path.join(root, '.cluster');

ensureBuilt();
const nginxPort = Number(process.env.CLUSTER_PORT ?? 8080);
const nodeCount = Number(process.env.CLUSTER_NODES ?? 3);
const overloadedNode = Number(process.env.CLUSTER_OVERLOADED_NODE ?? 0);
if (!Number.isInteger(overloadedNode) || overloadedNode < 0 || overloadedNode > nodeCount)
  throw new Error(`CLUSTER_OVERLOADED_NODE : un numéro de nœud de 1 à ${nodeCount} (ou 0 : aucun)`);
const cluster = await startLocalCluster({
  workDir,
  ports: {
    nginx: nginxPort,
    postgres: 54340,
    redis: 63790,
    nodes: Array.from({ length: nodeCount }, (_, i) => 3101 + i),
  },
  env: { LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' },
  nodeEnv:
    overloadedNode > 0
      ? { [overloadedNode - 1]: { LOAD_ENTER_UTILIZATION: '0', LOAD_EXIT_UTILIZATION: '0' } }
      : undefined,
  // The first administrator's password, and warnings; the nodes' JSON logs stay in their level.
  onOutput: (line) => console.log(line),
}).catch(fail);
if (overloadedNode > 0)
  await judgedOverloaded(cluster.nodes[overloadedNode - 1]).catch(async (error: unknown) => {
    await cluster.stop(); // nothing left behind
    fail(error);
  });
const simulator = demoBots > 0 ? startDemoBots(cluster) : undefined;
console.log(`
  Grappe prête : ${cluster.url}/
  ${cluster.nodes.length} nœuds (${cluster.nodes.map((node) => node.port).join(', ')}) derrière nginx, PostgreSQL et Redis locaux.
  ${overloadedNode > 0 ? `Le nœud ${overloadedNode} se dit surchargé : /api/readyz y répond 503 OVERLOADED, les nouveaux bots vont aux autres.\n  ` : ''}${simulator ? `${demoBots} bots simulés connectés par nginx (comptes de démonstration : demo0001 à demo${String(demoBots).padStart(4, '0')}, mot de passe Demo-Bot-Platform-2026).\n  ` : ''}Le mot de passe du premier administrateur s’affiche au premier lancement (rm -rf .cluster pour repartir de zéro).
  Ctrl-C pour tout arrêter.
`);
let isStopping = false;
const stop = async () => {
  if (isStopping) return;
  isStopping = true;
  console.log('Arrêt de la grappe…');
  simulator?.kill('SIGTERM');
  await cluster.stop();
  process.exit(0);
};
// A closed terminal (SIGHUP) stops it too: the parts have their own process groups and outlive it.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, stop);
process.on('exit', () => simulator?.kill('SIGKILL')); // never leave the simulator behind

/** A start that cannot go on: its reason in one French sentence, not a stack trace. */
function fail(error: unknown): never {
  console.error(`Grappe non démarrée : ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

/** Waits for the node to call itself overloaded (after its start-up grace): the demo bots then avoid it. */
async function judgedOverloaded(node: { name: string; url: string } | undefined): Promise<void> {
  if (!node) throw new Error(`CLUSTER_OVERLOADED_NODE : pas de nœud ${overloadedNode}`);
  console.log(`En attente du ${node.name} surchargé (15 s après son démarrage)…`);
  const deadline = Date.now() + 60_000;
  while ((await fetch(`${node.url}/api/readyz`)).status !== 503) {
    if (Date.now() > deadline) throw new Error(`le ${node.name} ne se dit pas surchargé après 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** Demo users with bot sessions (seed:demo on the cluster's database), then the simulator through nginx. */
function startDemoBots(target: {
  url: string;
  databaseUrl: string;
  redisUrl: string | undefined;
  masterKeyEnv: Record<string, string>;
}): ChildProcess {
  const env = {
    ...process.env,
    DATABASE_URL: target.databaseUrl,
    ...target.masterKeyEnv, // the nodes' master key: the bot keys it seals are theirs to read
    REDIS_URL: target.redisUrl ?? '',
    DATA_DIR: path.join(workDir, 'demo'),
    LOG_LEVEL: 'warn',
  };
  // Node itself, not npm: a signal then reaches the process doing the work. Our packages from their
  // sources (the `source` export condition, docs/decisions/001-runtime-and-tooling.md).
  const tsx = (script: string, args: string[]) => [
    '--import',
    'tsx',
    '--conditions=source',
    path.join(root, script),
    ...args,
  ];
  const seeded = spawnSync(
    process.execPath,
    tsx('apps/server/src/cli/seed-demo.ts', ['--users', String(demoBots), '--without-next-steps']),
    { cwd: root, env, stdio: 'inherit' },
  );
  if (seeded.status !== 0) throw new Error('seed:demo a échoué');
  const demoFile = path.join(workDir, 'demo', 'demo-bots.json');
  return spawn(
    process.execPath,
    tsx('apps/bot-agent/src/simulate.ts', [
      '--bots',
      String(demoBots),
      '--url',
      target.url,
      '--file',
      demoFile,
    ]),
    // Its errors show: a simulator that crashed used to leave the cluster without bots, silently.
    { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] },
  );
}
