import type {
  AgentConfiguration,
  BotCommandDelivery,
  BotCommandKind,
  BotCommandResult,
} from '@bot/contracts';

/** What each command carries (decision 208). */
export interface BotCommandPayloads {
  pause: Record<string, never>;
  resume: Record<string, never>;
  restart: Record<string, never>;
  stopAccount: { account: string };
  configure: AgentConfiguration;
}

/** A handler's outcome: nothing (done), `{ok: false, message}` (failed, told to the issuer); a throw fails too. */
export type CommandOutcome = { ok: boolean; message?: string } | undefined;
export type CommandHandler<K extends BotCommandKind> = (
  payload: BotCommandPayloads[K],
  command: BotCommandDelivery,
) => CommandOutcome | Promise<CommandOutcome>;

/** Ids remembered to answer a re-sent command without running it again. */
const REMEMBERED = 500;

interface CommandLink {
  ack(id: string): void;
  /** False when not connected: the result waits for the next authenticated connection. */
  result(result: BotCommandResult): boolean;
  /** After a command ran (once per id), with its outcome: the agent's own state follows it. */
  ran?(command: BotCommandDelivery, result: BotCommandResult): void;
}

/**
 * The agent's side of remote commands: acknowledges each on receipt (the only thing that moves it
 * past "sent" on the server), runs its handler once per id (the server re-sends one whose
 * acknowledgement it never got), and sends the outcome, kept until a connection takes it.
 */
export class CommandRunner {
  private readonly handlers = new Map<BotCommandKind, CommandHandler<BotCommandKind>>();
  private readonly outcomes = new Map<string, Promise<BotCommandResult>>();
  private unsent: BotCommandResult[] = [];

  constructor(private readonly link: CommandLink) {}

  on<K extends BotCommandKind>(kind: K, handler: CommandHandler<K>): void {
    this.handlers.set(kind, handler as unknown as CommandHandler<BotCommandKind>);
  }

  receive(command: BotCommandDelivery): void {
    this.link.ack(command.id);
    const known = this.outcomes.get(command.id);
    // Already run (or running): its outcome again, never a second run.
    const outcome = known ?? this.run(command);
    if (!known) {
      this.outcomes.set(command.id, outcome);
      if (this.outcomes.size > REMEMBERED) this.outcomes.delete(this.outcomes.keys().next().value as string);
    }
    void outcome.then((result) => {
      this.send(result);
      if (!known) this.link.ran?.(command, result);
    });
  }

  /** A connection was authenticated: results it could not send before go now. */
  flush(): void {
    const waiting = this.unsent;
    this.unsent = [];
    for (const result of waiting) this.send(result);
  }

  private send(result: BotCommandResult): void {
    if (!this.link.result(result)) this.unsent.push(result);
  }

  private async run(command: BotCommandDelivery): Promise<BotCommandResult> {
    const handler = this.handlers.get(command.kind);
    if (!handler)
      return { id: command.id, ok: false, message: 'Commande non prise en charge par cet agent.' };
    try {
      const outcome = await handler(command.payload as never, command);
      return {
        id: command.id,
        ok: outcome?.ok ?? true,
        ...(outcome?.message ? { message: outcome.message.slice(0, 500) } : {}),
      };
    } catch (error) {
      return { id: command.id, ok: false, message: ((error as Error).message || 'Échec').slice(0, 500) };
    }
  }
}
