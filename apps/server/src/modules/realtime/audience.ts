import type { Redis } from 'ioredis';
import type { HubServer } from './realtime.types.ts';

/**
 * Which rooms have a watcher somewhere: Socket.IO serialises a broadcast before looking for
 * recipients, and with several nodes it also ships it to every node. Most bots have no watcher, so
 * their updates are sent nowhere.
 */
export interface Audience {
  has(room: string): boolean;
  /** A socket just joined `room` here (other nodes learn it at their next refresh). */
  joined(room: string): void;
  /** Periodic: shares this node's watched rooms and learns the others'. */
  refresh(): Promise<void>;
}

function isWatchedHere(io: HubServer, room: string): boolean {
  return (io.sockets.adapter.rooms.get(room)?.size ?? 0) > 0;
}

/** One node: the rooms Socket.IO already tracks. */
export class LocalAudience implements Audience {
  constructor(private readonly io: HubServer) {}

  has(room: string): boolean {
    return isWatchedHere(this.io, room);
  }

  joined(): void {}

  async refresh(): Promise<void> {}
}

const WATCHED_KEY = 'bp:watched';

/**
 * Several nodes: each node writes its watched rooms into one sorted set, scored by when the entry
 * expires, and reads everyone's back every refresh (a killed node's rooms simply expire). A new
 * watcher on another node therefore gets updates within one refresh; it got the current state from
 * the store when it joined.
 */
export class ClusterAudience implements Audience {
  private watchedAnywhere = new Set<string>();

  constructor(
    private readonly io: HubServer,
    private readonly redis: Redis,
    private readonly roomFilter: (room: string) => boolean,
    private readonly refreshMs: number,
  ) {}

  has(room: string): boolean {
    return isWatchedHere(this.io, room) || this.watchedAnywhere.has(room);
  }

  joined(room: string): void {
    this.redis.zadd(WATCHED_KEY, Date.now() + this.entryLifetimeMs(), room).catch(() => undefined);
  }

  async refresh(): Promise<void> {
    const now = Date.now();
    const expiresAt = now + this.entryLifetimeMs();
    const pipeline = this.redis.pipeline();
    const args: (string | number)[] = [];
    for (const [room, members] of this.io.sockets.adapter.rooms) {
      if (members.size > 0 && this.roomFilter(room)) args.push(expiresAt, room);
    }
    if (args.length > 0) pipeline.zadd(WATCHED_KEY, ...args);
    pipeline.zremrangebyscore(WATCHED_KEY, '-inf', String(now));
    pipeline.zrange(WATCHED_KEY, '0', '-1');
    const results = (await pipeline.exec()) ?? [];
    const last = results.at(-1);
    if (!last || last[0]) throw last?.[0] ?? new Error('watched rooms unreadable');
    this.watchedAnywhere = new Set(last[1] as string[]);
  }

  /** Long enough to survive two missed refreshes. */
  private entryLifetimeMs(): number {
    return this.refreshMs * 3;
  }
}
