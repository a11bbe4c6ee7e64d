import {
  type BotCommand,
  botCommandAckSchema,
  botCommandResultSchema,
  SOCKET_EVENTS,
  type SocketAck,
} from '@bot/contracts';
import DataLoader from 'dataloader';
import type { AppContext } from '../../context.ts';
import { runInBackground } from '../../core/background.ts';
import {
  acknowledgeCommand,
  type CommandToDeliver,
  commandsToDeliver,
  finishCommand,
  markCommandSent,
  maskStaff,
} from '../commands/index.ts';
import { ACCEPTED, invalid, readAgentMessage, refused } from './agent-acks.ts';
import { type HubServer, type HubSocket, localSocketsIn } from './realtime.types.ts';
import { rooms } from './rooms.ts';

/**
 * How long connecting bots wait for others before their waiting commands are read together: one
 * query per bot was a thousand queries for a thousand bots connecting in a second, most of the
 * embedded database's work while they connected. The agent is already authenticated meanwhile.
 */
const ADMISSION_BATCH_WINDOW_MS = 50;

interface CommandDeps {
  ctx: AppContext;
  io: HubServer;
}

/**
 * Remote commands on this node's sockets (decisions 208 and 013). Every node hears
 * `botCommand.changed`: each tells its own watchers of the bot (staff unnamed), the staff maps and
 * the staff issuer's browsers, and the node holding the bot's socket emits a command the issuance
 * already marked `sent` (`handOver`), or marks a queued one and emits it. A bot connecting here is
 * handed what waits for it, and a command sent and never acknowledged once more; each connection
 * gets a command once, whichever path reaches it first. The agent's acknowledgements and results go
 * to the commands module, in the order they came.
 */
export class BotCommandRelay {
  private readonly unsubscribe: () => void;
  /** Per agent socket, the last of its messages being written (an ack is written before its result). */
  private readonly pending = new WeakMap<HubSocket, Promise<unknown>>();
  /** Per agent socket, the commands emitted on it (the event and the admission may both find one). */
  private readonly handedOver = new WeakMap<HubSocket, Set<string>>();
  private isClosed = false;
  private readonly waiting: DataLoader<string, CommandToDeliver[]>;

  constructor(private readonly deps: CommandDeps) {
    this.unsubscribe = deps.ctx.events.on('botCommand.changed', (event) => this.changed(event));
    // No memoisation: each connection reads what waits at its own moment.
    this.waiting = new DataLoader((hwids) => commandsToDeliver(deps.ctx, hwids), {
      cache: false,
      batchScheduleFn: (dispatch) => setTimeout(dispatch, ADMISSION_BATCH_WINDOW_MS),
    });
  }

  close(): void {
    this.isClosed = true;
    this.unsubscribe();
  }

  /** An agent was admitted on this node: queued commands, and sent ones not acknowledged yet. */
  async admitted(socket: HubSocket): Promise<void> {
    const { hwid } = socket.data;
    if (!hwid) return;
    const waiting = await this.waiting.load(hwid);
    for (const { command, deliveries } of waiting) await this.deliver(socket, command, deliveries);
  }

  /** `bot_command_ack`: answered with what was refused (decision 923), a command not `sent` included. */
  ack(socket: HubSocket, payload: unknown): Promise<SocketAck> {
    const parsed = readAgentMessage((input) => botCommandAckSchema.safeParse(input), payload);
    if (!parsed.success) return Promise.resolve(invalid(parsed.error));
    return this.inOrder(socket, (hwid) => acknowledgeCommand(this.deps.ctx, { id: parsed.data.id, hwid }));
  }

  /** `bot_command_result`: answered like an acknowledgement; only an `acknowledged` command ends. */
  result(socket: HubSocket, payload: unknown): Promise<SocketAck> {
    const parsed = readAgentMessage((input) => botCommandResultSchema.safeParse(input), payload);
    if (!parsed.success) return Promise.resolve(invalid(parsed.error));
    return this.inOrder(socket, (hwid) => finishCommand(this.deps.ctx, { ...parsed.data, hwid }));
  }

  /** Written after the socket's previous message; answers whether the command was in the state it needs. */
  private inOrder(socket: HubSocket, work: (hwid: string) => Promise<boolean>): Promise<SocketAck> {
    const { hwid } = socket.data;
    if (socket.data.kind !== 'bot' || !hwid) return Promise.resolve(refused('UNAUTHORIZED'));
    const next = (this.pending.get(socket) ?? Promise.resolve())
      .then(() => work(hwid))
      .then(
        (isDone) => (isDone ? ACCEPTED : refused('BOT_COMMAND_NOT_PENDING')),
        (error: unknown) => {
          this.deps.ctx.log.error({ err: error, hwid }, 'message de commande du bot non enregistré');
          return refused('INTERNAL');
        },
      );
    this.pending.set(socket, next);
    return next;
  }

  private changed(event: { command: BotCommand; issuerId: string | null; handOver?: true }): void {
    if (this.isClosed) return;
    const { io } = this.deps;
    const { command, issuerId } = event;
    const watchers = rooms.bot(command.hwid);
    io.local.to(watchers).emit(SOCKET_EVENTS.botCommandUpdate, maskStaff(command));
    // Staff maps hear every command, whoever sent it (each socket once), with the issuer named.
    const staff: string[] = [rooms.admins, rooms.mapViewers];
    if (issuerId && command.issuer.type === 'staff') staff.push(rooms.user(issuerId));
    io.local.to(staff).except(watchers).emit(SOCKET_EVENTS.botCommandUpdate, command);
    const [agent] = localSocketsIn(io, rooms.agent(command.hwid));
    if (agent?.data.kind !== 'bot') return;
    if (event.handOver) this.emitOnce(agent, command);
    else if (command.state === 'queued')
      runInBackground(this.deps.ctx.log, 'remise d’une commande au bot', () =>
        this.deliver(agent, command, 0),
      );
  }

  /** Marked `sent` first, then emitted: an acknowledgement never finds it still `queued`. */
  private async deliver(socket: HubSocket, command: BotCommand, deliveries: number): Promise<void> {
    if (this.isClosed || !socket.connected || this.wasHandedOver(socket, command.id)) return;
    const sent = await markCommandSent(this.deps.ctx, { id: command.id, deliveries });
    if (sent) this.emitOnce(socket, sent);
  }

  /** Emits a command marked `sent` on the agent's socket, unless this connection already has it. */
  private emitOnce(socket: HubSocket, command: BotCommand): void {
    const emitted = this.handedOver.get(socket) ?? new Set<string>();
    this.handedOver.set(socket, emitted);
    if (this.isClosed || !socket.connected || emitted.has(command.id)) return;
    emitted.add(command.id);
    socket.emit(SOCKET_EVENTS.botCommand, { id: command.id, kind: command.kind, payload: command.payload });
  }

  private wasHandedOver(socket: HubSocket, id: string): boolean {
    return this.handedOver.get(socket)?.has(id) === true;
  }
}
