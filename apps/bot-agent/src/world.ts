import type { AgentConfiguration, BotAccount, BotReport, BotStatus } from '@bot/contracts';

/** The simulated world: a grid of maps, x and y in [-WORLD_RADIUS, WORLD_RADIUS]. */
export const WORLD_RADIUS = 40;

/** One map per grid cell; ids are stable and positive: (x + 1000) * 10000 + (y + 1000). */
export function mapIdOf(x: number, y: number): number {
  return (x + 1000) * 10_000 + (y + 1000);
}

const ACTIVITIES: BotStatus[] = ['gathering', 'treasure', 'fighting', 'banking', 'idle', 'moving'];

/** A tiny seeded PRNG (mulberry32), so a simulated bot walks the same way on every run. */
function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function seedOf(text: string): number {
  let hash = 2166136261;
  for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619);
  return hash >>> 0;
}

const clamp = (value: number) => Math.max(-WORLD_RADIUS, Math.min(WORLD_RADIUS, value));

/** The game accounts of one simulated bot, moving and earning one tick at a time. */
export class SimulatedBot {
  private readonly random: () => number;
  private readonly accounts: BotAccount[];
  private readonly ticksLeft: number[];
  /** Accounts stopped by a command (they report `stopped` until configured back on). */
  private readonly stopped = new Set<string>();

  constructor(
    readonly hwid: string,
    accountNames: string[],
    /** A broken build (`npm run simulate -- --fail-version`): every running account is in error. */
    private readonly options: { failing?: boolean } = {},
  ) {
    this.random = createRandom(seedOf(hwid));
    this.accounts = accountNames.map((name, index) => {
      const x = Math.round((this.random() * 2 - 1) * WORLD_RADIUS);
      const y = Math.round((this.random() * 2 - 1) * WORLD_RADIUS);
      return {
        name,
        character: `${name.replace(/[^A-Za-z0-9]/g, '').slice(0, 12)}-${index + 1}`,
        level: 1 + Math.floor(this.random() * 199),
        status: this.pick(ACTIVITIES),
        position: { mapId: mapIdOf(x, y), x, y },
        routeId: null,
        stats: { gathered: 0, treasures: 0, kamas: 0, xp: 0 },
        message: null,
      };
    });
    this.ticksLeft = this.accounts.map(() => this.nextDuration());
  }

  private pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)] as T;
  }

  private nextDuration(): number {
    return 5 + Math.floor(this.random() * 25);
  }

  /** Stops one game account (`stopAccount`); false when the bot has no such account. */
  stopAccount(name: string): boolean {
    if (!this.accounts.some((account) => account.name === name)) return false;
    this.stopped.add(name);
    return true;
  }

  /** Applies a configuration (`configure`): each account's route, and which accounts run. */
  configure(config: AgentConfiguration): void {
    for (const account of this.accounts) {
      const own = config.accounts.find((entry) => entry.name === account.name);
      account.routeId = own?.routeId ?? config.routeId;
      if (own?.enabled === false) this.stopped.add(account.name);
      else this.stopped.delete(account.name);
    }
  }

  /** Advances the world by one tick and answers the report to send. */
  tick(): BotReport {
    this.accounts.forEach((account, index) => {
      if (this.stopped.has(account.name)) {
        account.status = 'stopped';
        account.message = null;
        return;
      }
      this.ticksLeft[index] = (this.ticksLeft[index] ?? 0) - 1;
      if ((this.ticksLeft[index] ?? 0) <= 0) {
        account.status = this.pick(ACTIVITIES);
        this.ticksLeft[index] = this.nextDuration();
      }
      const { stats, position } = account;
      switch (account.status) {
        case 'moving':
        case 'treasure': {
          const horizontal = this.random() < 0.5;
          const step = this.random() < 0.5 ? -1 : 1;
          const x = horizontal ? clamp(position.x + step) : position.x;
          const y = horizontal ? position.y : clamp(position.y + step);
          account.position = { mapId: mapIdOf(x, y), x, y };
          if (account.status === 'treasure' && this.random() < 0.1) {
            stats.treasures += 1;
            stats.kamas += 500 + Math.floor(this.random() * 2000);
          }
          break;
        }
        case 'gathering':
          stats.gathered += Math.floor(this.random() * 4);
          stats.xp += Math.floor(this.random() * 50);
          break;
        case 'fighting':
          stats.xp += 100 + Math.floor(this.random() * 400);
          stats.kamas += Math.floor(this.random() * 50);
          if (this.random() < 0.01 && account.level < 1000) account.level += 1;
          break;
        case 'banking':
          stats.kamas += Math.floor(this.random() * 10);
          break;
        default:
          break;
      }
      account.message = account.status === 'banking' ? 'Dépôt en banque' : null;
      if (this.options.failing) {
        account.status = 'error';
        account.message = 'Erreur de la version simulée défaillante';
      }
    });
    return { accounts: this.accounts.map((account) => ({ ...account, stats: { ...account.stats } })) };
  }
}
