import type { BotLogLines } from '@bot/contracts';
import { type ConformanceBench, ownerSeesOnline, ownerView, type RunningAgent, waitUntil } from './bench.ts';
import { startFakePlatform } from './fake-platform.ts';
import {
  commandReaches,
  downloadsOf,
  openJournal,
  publishBuild,
  revokeLeaseKey,
  setMinimumVersion,
  unlistAccount,
  withdrawBuild,
} from './staff-actions.ts';

/** What a scenario acts with: the bench, and the agent under test started for a fresh owner. */
interface ScenarioContext {
  bench: ConformanceBench;
  /** Starts the agent for a new owner against the bench's server (or the platform given). */
  start(platform?: { url: string }): Promise<RunningAgent>;
}

/**
 * One behaviour of the protocol an agent must show. `run` throws, in French, what the agent did not
 * do; every agent it started is stopped after it. Add a scenario by adding an entry to SCENARIOS
 * (apps/bot-agent/README.md, "Conformance kit").
 */
export interface ConformanceScenario {
  id: string;
  title: string;
  run(context: ScenarioContext): Promise<void>;
}

/** Waits for the agent's process to end; fails when it does not within the time given. */
function exits(agent: RunningAgent, what: string, timeoutMs = 15_000): Promise<number | null> {
  return waitUntil(() => (agent.hasExited() ? agent.exited : undefined), what, timeoutMs);
}

/** The requests the server answered from now on (`POST /api/bot/lease 200`). */
function requestsFrom(bench: ConformanceBench): () => string[] {
  const mark = bench.requests.length;
  return () => bench.requests.slice(mark);
}

/**
 * A version below the one the agent runs, where a withdrawn build sends it back: one of its own per
 * run, so that several agents (of different versions) can be played on one server.
 */
const olderVersion = () => `0.0.0-conformance.${Date.now()}`;

export const SCENARIOS: ConformanceScenario[] = [
  {
    id: 'report',
    title: 'session, authentification, rapports : le propriétaire voit le bot en ligne',
    async run({ bench, start }) {
      const agent = await start();
      const state = await ownerSeesOnline(bench, agent.owner);
      const before = state.accounts[0]?.stats;
      // Reports keep coming (a keep-alive at least every 10 s): the state's lastSeenAt moves on.
      await waitUntil(
        async () => (await ownerView(bench, agent.owner))?.lastSeenAt !== state.lastSeenAt,
        'un nouveau rapport arrive',
        12_000,
      );
      const after = (await ownerView(bench, agent.owner))?.accounts[0]?.stats;
      // Stats are cumulative counters: they never go down.
      if (
        before &&
        after &&
        (Object.keys(before) as (keyof typeof before)[]).some((k) => after[k] < before[k])
      )
        throw new Error(
          `statistiques en baisse (${JSON.stringify(before)} puis ${JSON.stringify(after)}) : elles sont cumulées`,
        );
    },
  },
  {
    id: 'command',
    title: 'commande à distance : accusé de réception, résultat, pause visible',
    async run({ bench, start }) {
      const agent = await start();
      await ownerSeesOnline(bench, agent.owner);
      await commandReaches(bench, agent.owner.hwid, 'pause', 'succeeded');
      await waitUntil(
        async () => (await ownerView(bench, agent.owner))?.paused === true,
        'le rapport dit « paused »',
      );
      await commandReaches(bench, agent.owner.hwid, 'resume', 'succeeded');
    },
  },
  {
    id: 'log',
    title: 'journal à la demande : les lignes arrivent quand le propriétaire l’ouvre',
    async run({ bench, start }) {
      const agent = await start();
      await ownerSeesOnline(bench, agent.owner);
      const journal = await openJournal(bench, agent.owner);
      try {
        await waitUntil(
          () => journal.lines.some((line: BotLogLines['lines'][number]) => line.origin === 'agent'),
          'une ligne du journal de l’agent arrive',
        );
      } finally {
        journal.close();
      }
    },
  },
  {
    id: 'refused-message',
    title: 'message refusé : l’agent affiche ce que le serveur a refusé et continue',
    async run({ bench, start }) {
      const agent = await start();
      await ownerSeesOnline(bench, agent.owner);
      // Its account leaves the whitelist: its next report names it, and the server answers so.
      await unlistAccount(bench, agent.owner);
      await waitUntil(
        () => agent.output().includes('WHITELIST_ACCOUNT_UNKNOWN'),
        'l’agent affiche le refus de son rapport (WHITELIST_ACCOUNT_UNKNOWN)',
        15_000,
      );
      if (agent.hasExited()) throw new Error('l’agent s’est arrêté après un message refusé');
    },
  },
  {
    id: 'revoked-key',
    title: 'clé de signature révoquée : l’agent demande un nouveau bail et reste en ligne',
    async run({ bench, start }) {
      const agent = await start();
      await ownerSeesOnline(bench, agent.owner);
      const since = requestsFrom(bench);
      await revokeLeaseKey(bench);
      await waitUntil(() => since().includes('POST /api/bot/lease 200'), 'un nouveau bail est demandé');
      if (agent.hasExited()) throw new Error('l’agent s’est arrêté après la révocation');
      await ownerSeesOnline(bench, agent.owner);
    },
  },
  {
    id: 'restart',
    title: 'redémarrage du serveur : l’agent se reconnecte',
    async run({ bench, start }) {
      const agent = await start();
      await ownerSeesOnline(bench, agent.owner);
      await bench.server.restart();
      await ownerSeesOnline(bench, agent.owner, 30_000);
    },
  },
  {
    id: 'withdrawn-build',
    title: 'version retirée : l’agent vérifie le retour arrière signé et télécharge la version précédente',
    async run({ bench, start }) {
      const agent = await start();
      const { version } = await ownerSeesOnline(bench, agent.owner);
      const previous = await publishBuild(bench, olderVersion());
      await withdrawBuild(bench, await publishBuild(bench, version));
      await waitUntil(
        async () => (await downloadsOf(bench, previous)) > 0,
        'la version précédente est téléchargée',
      );
    },
  },
  {
    id: 'fake-platform',
    title: 'fausse plateforme : un bail signé d’une clé que la racine ne garantit pas est refusé',
    async run({ start }) {
      const fake = await startFakePlatform();
      try {
        const agent = await start({ url: fake.url });
        await waitUntil(() => fake.asked.includes('POST /api/bot/sessions'), 'l’agent demande une session');
        // The agent stops, or at least never uses the lease: no authentication, no report, in 5 s.
        await waitUntil(() => agent.hasExited(), 'arrêt', 5_000).catch(() => undefined);
        const used = fake.socketEvents.filter((event) => event === 'authenticate' || event === 'bot_update');
        if (used.length > 0)
          throw new Error(`l’agent a utilisé le bail de la fausse plateforme (${used.join(', ')})`);
      } finally {
        await fake.close();
      }
    },
  },
  {
    id: 'minimum-version-raised',
    title: 'version minimale relevée en ligne : l’agent s’arrête sans se reconnecter',
    async run({ bench, start }) {
      const agent = await start();
      await ownerSeesOnline(bench, agent.owner);
      try {
        await setMinimumVersion(bench, '999.0.0');
        const code = await exits(agent, 'l’agent s’arrête');
        if (code === 0)
          throw new Error('l’agent s’est arrêté avec le code 0 : un refus définitif se signale');
      } finally {
        await setMinimumVersion(bench, '0.0.0');
      }
    },
  },
  {
    id: 'outdated-at-start',
    title: 'version trop ancienne au démarrage (426) : l’agent s’arrête et le dit',
    async run({ bench, start }) {
      await setMinimumVersion(bench, '999.0.0');
      try {
        const since = requestsFrom(bench);
        const agent = await start();
        const code = await exits(agent, 'l’agent s’arrête');
        if (!since().includes('POST /api/bot/sessions 426'))
          throw new Error('la plateforme n’a pas répondu 426');
        if (code === 0)
          throw new Error('l’agent s’est arrêté avec le code 0 : un refus définitif se signale');
        if (!agent.output().includes('999.0.0')) throw new Error('l’agent ne dit pas la version minimale');
      } finally {
        await setMinimumVersion(bench, '0.0.0');
      }
    },
  },
];
