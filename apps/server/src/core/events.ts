import { EventEmitter } from 'node:events';
import type { Logger } from 'pino';
import { runInBackground } from './background.ts';

/**
 * Domain events other modules react to (the real-time hub closes sockets on revocation, caches
 * drop stale entries). In-process; the Redis mode relays them between nodes.
 */
export interface DomainEvents {
  'sessions.revoked': { userId: string; sessionIds: string[] };
  'user.changed': { userId: string };
  'user.banned': { userId: string };
  'botKey.rotated': { userId: string };
  'hwid.reset': { userId: string; hwid: string };
  'settings.changed': { keys: string[] };
  /** A mail was queued in the outbox (its worker sends it at once). */
  'mail.queued': Record<string, never>;
  /** A customer's whitelisted game accounts changed (the hub re-reads them). */
  'whitelist.changed': { userId: string };
}

export class EventBus {
  private readonly emitter = new EventEmitter().setMaxListeners(100);

  constructor(private readonly log: Logger) {}

  emit<K extends keyof DomainEvents>(name: K, payload: DomainEvents[K]): void {
    this.emitter.emit(name, payload);
  }

  /** A failing listener is logged; it neither breaks the emitter nor the other listeners. */
  on<K extends keyof DomainEvents>(name: K, listener: (payload: DomainEvents[K]) => unknown): () => void {
    const guarded = (payload: DomainEvents[K]) =>
      runInBackground(this.log, `event ${name}`, () => listener(payload));
    this.emitter.on(name, guarded);
    return () => this.emitter.off(name, guarded);
  }
}
