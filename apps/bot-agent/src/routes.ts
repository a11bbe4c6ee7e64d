import type { BotAccount, BotRoute, BotStatus, RouteAction, RouteStep } from '@bot/contracts';
import { mapIdOf } from './world.ts';

/** `GET /api/bot/routes?hwid=` with the bot session token: the published routes the owner may run. */
export async function fetchBotRoutes(input: {
  serverUrl: string;
  token: string;
  hwid: string;
  fetchImpl?: typeof fetch;
}): Promise<BotRoute[]> {
  const fetchImpl = input.fetchImpl ?? fetch;
  const response = await fetchImpl(
    `${input.serverUrl.replace(/\/+$/, '')}/api/bot/routes?hwid=${encodeURIComponent(input.hwid)}`,
    { headers: { authorization: `Bearer ${input.token}` } },
  );
  const body = (await response.json().catch(() => ({}))) as { data?: BotRoute[]; error?: string };
  if (!response.ok) throw new Error(body.error ?? `Itinéraires indisponibles (HTTP ${response.status}).`);
  return body.data ?? [];
}

const STATUS_OF_ACTION: Record<RouteAction, BotStatus> = {
  move: 'moving',
  gather: 'gathering',
  dig: 'treasure',
  fight: 'fighting',
  bank: 'banking',
};

/**
 * Walks one game account along a route, one map per tick toward the next step; on a step's map it
 * does the step's action for `actionTicks` ticks, then heads for the next step (looping at the end).
 */
export class RouteFollower {
  private stepIndex = 0;
  private actionTicksLeft: number;
  private readonly actionTicks: number;

  constructor(
    readonly route: Pick<BotRoute, 'id' | 'steps'>,
    options: { actionTicks?: number } = {},
  ) {
    this.actionTicks = options.actionTicks ?? 3;
    this.actionTicksLeft = this.actionTicks;
  }

  /** The step the account is heading for or working on. */
  get currentStep(): RouteStep | undefined {
    return this.route.steps[this.stepIndex];
  }

  /** The account one tick later on the route. */
  advance(account: BotAccount): BotAccount {
    const step = this.currentStep;
    if (!step) return { ...account, routeId: this.route.id, status: 'idle', message: 'Itinéraire vide' };
    const { x, y } = account.position;
    if (x !== step.x || y !== step.y) {
      // Move one map, horizontally first.
      const nextX = x === step.x ? x : x + Math.sign(step.x - x);
      const nextY = x === step.x ? y + Math.sign(step.y - y) : y;
      return {
        ...account,
        routeId: this.route.id,
        status: 'moving',
        position: { mapId: mapIdOf(nextX, nextY), x: nextX, y: nextY },
        message: `Vers l'étape ${this.stepIndex + 1}`,
      };
    }
    const working: BotAccount = {
      ...account,
      routeId: this.route.id,
      status: STATUS_OF_ACTION[step.action],
      message: `Étape ${this.stepIndex + 1} / ${this.route.steps.length}`,
    };
    this.actionTicksLeft -= 1;
    if (this.actionTicksLeft <= 0) {
      this.stepIndex = (this.stepIndex + 1) % this.route.steps.length;
      this.actionTicksLeft = this.actionTicks;
    }
    return working;
  }
}
