import {
  BOT_LOG_BATCH_MAX_LINES,
  BOT_LOG_RECENT_LINES,
  type BotLogLineInput,
  botLogBatchSchema,
  botLogLineInput,
  SOCKET_EVENTS,
  type SocketAck,
} from '@bot/contracts';
import { BurstyRateLimiter, RateLimiterMemory } from 'rate-limiter-flexible';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { type NewBotLogLine, recordBotLogLines } from '../bot-log/index.ts';
import { ACCEPTED, invalid, issuesOf, readAgentMessage, refused } from './agent-acks.ts';
import type { Audience } from './audience.ts';
import { type HubServer, type HubSocket, localSocketsIn } from './realtime.types.ts';
import { rooms } from './rooms.ts';

const NOT_REQUESTED = refused('BOT_LOG_NOT_REQUESTED');
/** Lines past the bot's rate were dropped (counted in the journal's notice). */
const THROTTLED = refused('RATE_LIMITED');

interface LogRelayDeps {
  ctx: AppContext;
  io: HubServer;
  audience: Audience;
}

/** An agent of this node streaming its log: what it may still send and what it lost. */
interface Stream {
  socket: HubSocket;
  /** Lines of its ring buffer still accepted without the rate limit (once per watch). */
  backlogLeft: number;
  /** Lines lost since the last notice (past the rate limit, or the agent's own queue). */
  dropped: number;
  /** The last batch being written: batches are kept in the order they came. */
  writing: Promise<unknown>;
}

/**
 * The bots' journals (decision 209). Journal sockets (`authenticate` type `log`) join
 * `bot-log:<hwid>`, a room every node knows is watched (the shared audience). The node holding a
 * bot's socket tells its agent to stream (`bot_log_start`) when the room gains a watcher anywhere
 * and to stop (`bot_log_stop`) when it has none; it rate-limits the lines, keeps them and sends them
 * to the room on every node.
 */
export class BotLogRelay {
  private readonly streams = new Map<string, Stream>();
  private readonly limiter: BurstyRateLimiter;
  private isClosed = false;

  constructor(private readonly deps: LogRelayDeps) {
    const { linesPerSecond, burst } = deps.ctx.config.botLog;
    this.limiter = new BurstyRateLimiter(
      new RateLimiterMemory({ keyPrefix: 'bot-log', points: linesPerSecond, duration: 1 }),
      new RateLimiterMemory({
        keyPrefix: 'bot-log-burst',
        points: Math.max(1, burst - linesPerSecond),
        duration: 10,
      }),
    );
    // Another node's socket joined a room: if it is the journal of a bot held here, start it.
    deps.io.on('watching', (room: string) => {
      const hwid = rooms.hwidOfBotLog(room);
      if (hwid) this.watchersChanged(hwid);
    });
  }

  close(): void {
    this.isClosed = true;
    this.streams.clear();
  }

  /** A journal socket was admitted: it watches the bot's log from now on. */
  async viewerAdmitted(socket: HubSocket, hwid: string): Promise<void> {
    const room = rooms.botLog(hwid);
    await socket.join(room);
    this.deps.audience.joined(room);
    socket.emit(SOCKET_EVENTS.authenticated, { type: 'log', hwid });
    this.watchersChanged(hwid);
  }

  /** A journal socket left (its room is already left): the bot may stop if it was the last one. */
  viewerLeft(hwid: string): void {
    this.watchersChanged(hwid);
  }

  /** An agent was admitted here: it streams at once if its journal is open somewhere. */
  agentAdmitted(socket: HubSocket): void {
    if (socket.data.hwid) this.watchersChanged(socket.data.hwid);
  }

  agentLeft(socket: HubSocket): void {
    const { hwid } = socket.data;
    if (hwid && this.streams.get(hwid)?.socket === socket) this.streams.delete(hwid);
  }

  /**
   * Periodic: stops the agents nobody watches any more (a watcher on another node is known gone
   * once its node stops announcing the room), and says how many lines were dropped, at most once
   * per tick.
   */
  tick(): Promise<void> {
    for (const [hwid, stream] of this.streams) {
      if (!this.isWatched(hwid)) this.stop(hwid, stream);
      else if (stream.dropped > 0) {
        this.write(hwid, stream, [
          { level: 'warn', time: new Date(), message: droppedNotice(stream.dropped), origin: 'server' },
        ]);
        stream.dropped = 0;
      }
    }
    return Promise.resolve();
  }

  /**
   * `bot_log` from an agent, answered with what was refused (decision 923): outside a stream we asked
   * for, the whole batch; lines past the rate, `RATE_LIMITED`, dropped before they are read (a flood
   * costs no validation); a line that does not match its schema or holds a NUL character, that line
   * alone (`BOT_LOG_LINES_REFUSED`, the others are kept).
   */
  async received(socket: HubSocket, payload: unknown): Promise<SocketAck> {
    const { hwid } = socket.data;
    const stream = hwid ? this.streams.get(hwid) : undefined;
    if (!hwid || !stream || stream.socket !== socket) return NOT_REQUESTED;
    const envelope = parseEnvelope(payload);
    if (!envelope.success) return invalid(envelope.error);
    const { lines, backlog, dropped = 0 } = envelope.data;
    const taken = backlog
      ? this.takeBacklog(stream, lines.length)
      : await this.takeWithinRate(hwid, lines.length);
    stream.dropped += lines.length - taken + dropped;
    const read = readLines(lines.slice(0, taken));
    this.write(
      hwid,
      stream,
      read.kept.map(({ id, ...line }) => ({
        ...line,
        time: new Date(line.time),
        origin: 'agent',
        ...(id ? { agentLineId: id } : {}),
      })),
    );
    return read.refusal ?? (taken < lines.length ? THROTTLED : ACCEPTED);
  }

  /** How many of these lines the ring buffer's allowance takes (no rate limit: once per watch). */
  private takeBacklog(stream: Stream, count: number): number {
    const taken = Math.min(count, stream.backlogLeft);
    stream.backlogLeft -= taken;
    return taken;
  }

  /** How many of these lines the bot's rate takes (a steady rate and a burst above it); the rest are dropped. */
  private async takeWithinRate(hwid: string, count: number): Promise<number> {
    for (let taken = 0; taken < count; taken += 1) {
      const isAllowed = await this.limiter.consume(hwid).then(
        () => true,
        () => false,
      );
      if (!isAllowed) return taken;
    }
    return count;
  }

  /** Keeps the lines, in the order they came, then sends them to the journal's watchers on every node. */
  private write(hwid: string, stream: Stream, lines: NewBotLogLine[]): void {
    if (lines.length === 0) return;
    const { ctx, io } = this.deps;
    stream.writing = stream.writing
      .then(async () => {
        const { userId } = stream.socket.data;
        if (!userId) return;
        const recorded = await recordBotLogLines(ctx, { userId, hwid, lines });
        if (!this.isClosed && recorded.length > 0)
          io.to(rooms.botLog(hwid)).emit(SOCKET_EVENTS.botLog, { hwid, lines: recorded });
      })
      .catch((error: unknown) =>
        ctx.log.error({ err: error, hwid }, 'lignes du journal du bot non enregistrées'),
      );
  }

  private watchersChanged(hwid: string): void {
    if (this.isClosed) return;
    const [agent] = localSocketsIn(this.deps.io, rooms.agent(hwid));
    if (agent?.data.kind !== 'bot') return;
    const stream = this.streams.get(hwid);
    const watched = this.isWatched(hwid);
    if (watched && stream?.socket !== agent) this.start(hwid, agent);
    else if (!watched && stream) this.stop(hwid, stream);
  }

  private start(hwid: string, socket: HubSocket): void {
    this.streams.set(hwid, {
      socket,
      backlogLeft: BOT_LOG_RECENT_LINES,
      dropped: 0,
      writing: Promise.resolve(),
    });
    socket.emit(SOCKET_EVENTS.botLogStart);
  }

  private stop(hwid: string, stream: Stream): void {
    this.streams.delete(hwid);
    stream.socket.emit(SOCKET_EVENTS.botLogStop);
  }

  private isWatched(hwid: string): boolean {
    const room = rooms.botLog(hwid);
    return this.deps.audience.isWatchedHere(room) || this.deps.audience.isWatchedElsewhere(room);
  }
}

/** A batch's envelope, its lines unread: they are read once the rate took them. */
const batchEnvelope = z.strictObject({
  ...botLogBatchSchema.shape,
  lines: z.array(z.unknown()).max(BOT_LOG_BATCH_MAX_LINES),
});
const parseEnvelope = (payload: unknown) => batchEnvelope.safeParse(payload);
const parseLine = (line: unknown) => botLogLineInput.safeParse(line);

/**
 * The lines that match their schema, and the refusal naming the others by their path
 * (`BOT_LOG_LINES_REFUSED`: `lines.3.level`, how many were refused and kept).
 */
function readLines(lines: readonly unknown[]): { kept: BotLogLineInput[]; refusal?: SocketAck } {
  const kept: BotLogLineInput[] = [];
  const issues: z.core.$ZodIssue[] = [];
  lines.forEach((line, index) => {
    const read = readAgentMessage(parseLine, line);
    if (read.success) kept.push(read.data);
    else
      issues.push(...read.error.issues.map((issue) => ({ ...issue, path: ['lines', index, ...issue.path] })));
  });
  if (issues.length === 0) return { kept };
  const refusedLines = lines.length - kept.length;
  return {
    kept,
    refusal: refused('BOT_LOG_LINES_REFUSED', { refused: issuesOf(issues), refusedLines, kept: kept.length }),
  };
}

function droppedNotice(count: number): string {
  return count === 1
    ? '1 ligne du bot non transmise : trop de lignes à la fois.'
    : `${count} lignes du bot non transmises : trop de lignes à la fois.`;
}
