import { EventEmitter } from 'node:events';
import type { BotCommand, ReleaseChannel } from '@bot/contracts';
import type { Logger } from 'pino';
import { runInBackground } from './background.ts';

/**
 * Domain events other modules react to (the real-time hub closes sockets on revocation, caches
 * drop stale entries). With several nodes every event reaches every node (the hub attaches a relay
 * over Redis), except the node-local ones below.
 */
export interface DomainEvents {
  /** `banned`: revoked by a ban (sockets are told ACCOUNT_BANNED rather than UNAUTHORIZED). */
  'sessions.revoked': { userId: string; sessionIds: string[]; banned?: boolean };
  /** A user's sessions changed state (a second factor given, two-factor turned on or off). */
  'sessions.changed': { userId: string };
  'user.changed': { userId: string };
  'user.banned': { userId: string };
  'botKey.rotated': { userId: string };
  'hwid.reset': { userId: string; hwid: string };
  'settings.changed': { keys: string[] };
  /** A mail was queued in the outbox (its worker sends it at once). */
  'mail.queued': Record<string, never>;
  /** A Discord message was queued in its outbox (published after the commit; sent at once). */
  'discord.queued': Record<string, never>;
  /** A customer's whitelisted game accounts changed (the hub re-reads them). */
  'whitelist.changed': { userId: string };
  /** In-app notifications were written for these users (their open browsers refresh the bell). */
  'notifications.created': { userIds: string[] };
  /** A lease signing key was revoked (connected agents holding a lease it signed replace it at once). */
  'signingKey.revoked': { kid: string; statement: string };
  /**
   * A remote command was created or changed state (decision 208): the node holding the bot's
   * socket delivers a queued one, or emits one the issuance marked sent (`handOver`, decision 013);
   * every node tells its watchers of the bot and the issuer. `command` names staff issuers (the hub
   * masks them for customers).
   */
  'botCommand.changed': { command: BotCommand; userId: string; issuerId: string | null; handOver?: true };
  /** A build was withdrawn (decision 910): every node tells its agents running it to go back. */
  'release.yanked': { version: string; channel: ReleaseChannel };
}

export type DomainEventName = keyof DomainEvents;

/**
 * The bus as the context shows it outside a transaction: listening only. No `emit`, and no way to
 * hold events either (only `inTransaction` does, for the transaction it opens): events are emitted
 * on `tx.events` inside `inTransaction`, published after the commit (docs/architecture.md, "A use
 * case owns its effects"), so the compiler refuses an emit elsewhere.
 */
export type EventListeners = Pick<EventBus, 'on'>;

/** Every node already polls its mail and Discord outboxes: waking the others would only make them race for rows. */
const NODE_LOCAL_EVENTS: ReadonlySet<DomainEventName> = new Set(['mail.queued', 'discord.queued']);

/** Sends an event to the other nodes (they hand it to `receiveFromPeer`). */
export type EventRelay = (name: DomainEventName, payload: unknown) => void;

export class EventBus {
  private readonly emitter = new EventEmitter().setMaxListeners(100);
  private relay: EventRelay | undefined;

  constructor(private readonly log: Logger) {}

  /** A bus for one transaction: what is emitted on it reaches this one only when `publish` is called. */
  heldUntilCommit(): HeldEvents {
    return new HeldEvents(this, this.log);
  }

  /** Emits here and, unless `localOnly` (each node reaches the same conclusion itself), on every node. */
  emit<K extends DomainEventName>(
    name: K,
    payload: DomainEvents[K],
    options: { localOnly?: boolean } = {},
  ): void {
    this.emitter.emit(name, payload);
    if (this.relay && !options.localOnly && !NODE_LOCAL_EVENTS.has(name)) this.relay(name, payload);
  }

  /** Several nodes: events emitted here are also sent through `relay`. */
  relayTo(relay: EventRelay | undefined): void {
    this.relay = relay;
  }

  /** An event another node emitted: handled here like a local one, not relayed again. */
  receiveFromPeer(name: string, payload: unknown): void {
    if (!isDomainEventName(name) || NODE_LOCAL_EVENTS.has(name)) return;
    this.emitter.emit(name, payload);
  }

  /** A failing listener is logged; it neither breaks the emitter nor the other listeners. */
  on<K extends keyof DomainEvents>(name: K, listener: (payload: DomainEvents[K]) => unknown): () => void {
    const guarded = (payload: DomainEvents[K]) =>
      runInBackground(this.log, `événement ${name}`, () => listener(payload));
    this.emitter.on(name, guarded);
    return () => this.emitter.off(name, guarded);
  }
}

/**
 * The events of a use case's transaction (`inTransaction` in context.ts): held while it runs,
 * published once it commits, dropped if it rolls back, so caches and sockets never react to a
 * change that did not happen. Listening goes to the real bus.
 */
export class HeldEvents extends EventBus {
  private readonly held: Parameters<EventBus['emit']>[] = [];

  constructor(
    private readonly target: EventBus,
    log: Logger,
  ) {
    super(log);
  }

  override emit<K extends DomainEventName>(
    name: K,
    payload: DomainEvents[K],
    options: { localOnly?: boolean } = {},
  ): void {
    this.held.push([name, payload, options]);
  }

  override on<K extends keyof DomainEvents>(
    name: K,
    listener: (payload: DomainEvents[K]) => unknown,
  ): () => void {
    return this.target.on(name, listener);
  }

  /** Called once the transaction committed. */
  publish(): void {
    for (const [name, payload, options] of this.held.splice(0)) this.target.emit(name, payload, options);
  }
}

/** Every event name once (the compiler checks none is missing), to validate what a peer sends. */
const DOMAIN_EVENT_NAMES = {
  'sessions.revoked': true,
  'user.changed': true,
  'sessions.changed': true,
  'user.banned': true,
  'botKey.rotated': true,
  'hwid.reset': true,
  'settings.changed': true,
  'mail.queued': true,
  'discord.queued': true,
  'whitelist.changed': true,
  'notifications.created': true,
  'signingKey.revoked': true,
  'botCommand.changed': true,
  'release.yanked': true,
} satisfies Record<DomainEventName, true>;

function isDomainEventName(name: string): name is DomainEventName {
  return Object.hasOwn(DOMAIN_EVENT_NAMES, name);
}
