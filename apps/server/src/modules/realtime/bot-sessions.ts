import { botReportSchema, SOCKET_EVENTS, type SocketAck } from '@bot/contracts';
import type { RealtimeConfig } from '../../config.ts';
import { compileSafeParse } from '../../core/fast-validation.ts';
import { ACCEPTED, invalid, readAgentMessage, refused } from './agent-acks.ts';
import type { BotPresence } from './bot-presence.ts';
import type { BotStateStore } from './bot-state-store.ts';
import type { RealtimeMetrics } from './realtime.metrics.ts';
import { type HubServer, type HubSocket, refusal } from './realtime.types.ts';
import { rooms } from './rooms.ts';
import type { SocketIdentity } from './socket-auth.ts';
import { takeUpdateToken, updateTokenWaitMs } from './socket-guards.ts';

/** Every bot sends a report a second: validated by a compiled fast path, zod for the rest. */
const parseBotReport = compileSafeParse(botReportSchema);
/** Not the authenticated agent holding its PC (not authenticated yet, or replaced). */
const NOT_THE_BOT = refused('UNAUTHORIZED');

interface BotSessionsDeps {
  io: HubServer;
  store: BotStateStore;
  presence: BotPresence;
  metrics: RealtimeMetrics;
  config: RealtimeConfig;
}

/** The bot agents' side of the hub: admitting one, taking its reports, kicking it. */
export class BotSessions {
  constructor(private readonly deps: BotSessionsDeps) {}

  /** An authenticated agent takes its PC over, on this node and every other. */
  async admit(socket: HubSocket, identity: Extract<SocketIdentity, { kind: 'bot' }>): Promise<void> {
    const { hwid } = identity;
    await this.deps.presence.connect(socket, identity.bot);
    // An older connection for the same PC on another node: told, then closed (it was claimed first).
    const elsewhere = this.deps.io.in(rooms.agent(hwid)).except(socket.id);
    elsewhere.emit(SOCKET_EVENTS.authError, refusal('BOT_REPLACED'));
    elsewhere.disconnectSockets(true);
    await socket.join([rooms.agent(hwid), rooms.userAgents(identity.userId)]);
    socket.emit(SOCKET_EVENTS.authenticated, { type: 'bot', hwid });
  }

  /**
   * A report from an agent: throttled, validated, then handed to presence; a dropped one is counted
   * and answered with what was refused (`agent-acks.ts`).
   */
  report(socket: HubSocket, payload: unknown): SocketAck {
    const { presence, metrics, config } = this.deps;
    if (!presence.isHeldBy(socket)) return NOT_THE_BOT;
    if (!takeUpdateToken(socket.data, config)) {
      metrics.reportsDropped.inc({ reason: 'throttled' });
      // Dropped: the agent is told its limit and when the next report is taken.
      return refused('RATE_LIMITED', {
        limitPerSecond: config.botUpdatesPerSecond,
        retryAfterMs: updateTokenWaitMs(socket.data, config),
      });
    }
    const parsed = readAgentMessage(parseBotReport, payload);
    if (!parsed.success) {
      metrics.reportsDropped.inc({ reason: 'invalid' });
      return invalid(parsed.error);
    }
    metrics.updatesIn.inc();
    const outside = presence.report(socket, parsed.data);
    // The others are kept: only these accounts are dropped (the owner's whitelist changed).
    if (outside.length > 0) return refused('WHITELIST_ACCOUNT_UNKNOWN', { account: outside.join(', ') });
    return ACCEPTED;
  }

  /** Disconnects a PC's bot agent, on whichever node holds it; true when one was online. */
  async kick(hwid: string): Promise<boolean> {
    const wasOnline = (await this.deps.store.get(hwid)) !== undefined;
    const agent = this.deps.io.in(rooms.agent(hwid));
    agent.emit(SOCKET_EVENTS.authError, refusal('BOT_KICKED'));
    agent.disconnectSockets(true);
    return wasOnline;
  }
}
