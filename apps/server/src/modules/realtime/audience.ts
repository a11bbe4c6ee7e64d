import type { Redis } from 'ioredis';
import { AppError } from '../../core/errors.ts';
import type { HubServer } from './realtime.types.ts';

/**
 * Which rooms have a watcher, here and on the other nodes: Socket.IO serialises a broadcast before
 * looking for recipients, and with several nodes it also ships it to every node. Most bots have no
 * watcher, so their updates are sent nowhere; a watched bot's go to the nodes that watch it only.
 */
export interface Audience {
  /** A socket of this node is in `room`. */
  isWatchedHere(room: string): boolean;
  /** A socket of another node is in `room` (as of the last refresh). */
  isWatchedElsewhere(room: string): boolean;
  /** A socket just joined `room` here (other nodes learn it at once). */
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

  isWatchedHere(room: string): boolean {
    return isWatchedHere(this.io, room);
  }

  isWatchedElsewhere(): boolean {
    return false;
  }

  joined(): void {}

  async refresh(): Promise<void> {}
}

const WATCHED_KEY = 'bp:watched-rooms';
/** Between a node's id and a room in the set's members (node ids never hold it, rooms may). */
const SEPARATOR = '|';

/**
 * Several nodes: each node writes its watched rooms, as `node|room`, into one sorted set scored by
 * when the entry expires, and reads everyone's back every refresh (a killed node's rooms simply
 * expire). A join is also announced to the other nodes at once (`watching`), so a new watcher
 * elsewhere gets the next update; it got the current state from the store when it joined.
 */
export class ClusterAudience implements Audience {
  private watchedElsewhere = new Set<string>();

  constructor(
    private readonly io: HubServer,
    private readonly redis: Redis,
    private readonly options: {
      nodeId: string;
      /** The rooms worth sharing (those other nodes deliver to). */
      roomFilter: (room: string) => boolean;
      refreshMs: number;
    },
  ) {
    io.on('watching', (room: string) => this.watchedElsewhere.add(room));
  }

  isWatchedHere(room: string): boolean {
    return isWatchedHere(this.io, room);
  }

  isWatchedElsewhere(room: string): boolean {
    return this.watchedElsewhere.has(room);
  }

  joined(room: string): void {
    this.redis
      .zadd(WATCHED_KEY, Date.now() + this.entryLifetimeMs(), this.member(room))
      .catch(() => undefined);
    this.io.serverSideEmit('watching', room);
  }

  async refresh(): Promise<void> {
    const now = Date.now();
    const expiresAt = now + this.entryLifetimeMs();
    const pipeline = this.redis.pipeline();
    const args: (string | number)[] = [];
    for (const [room, members] of this.io.sockets.adapter.rooms) {
      if (members.size > 0 && this.options.roomFilter(room)) args.push(expiresAt, this.member(room));
    }
    if (args.length > 0) pipeline.zadd(WATCHED_KEY, ...args);
    pipeline.zremrangebyscore(WATCHED_KEY, '-inf', String(now));
    pipeline.zrange(WATCHED_KEY, '0', '-1');
    const results = (await pipeline.exec()) ?? [];
    const last = results.at(-1);
    // No answer to the last command: Redis is unavailable, the loop retries on its next run.
    if (!last || last[0]) throw last?.[0] ?? new AppError('SERVICE_UNAVAILABLE');
    this.watchedElsewhere = this.othersRooms(last[1] as string[]);
  }

  private othersRooms(members: string[]): Set<string> {
    const ownPrefix = this.member('');
    const found = new Set<string>();
    for (const member of members) {
      if (member.startsWith(ownPrefix)) continue;
      found.add(member.slice(member.indexOf(SEPARATOR) + 1));
    }
    return found;
  }

  private member(room: string): string {
    return `${this.options.nodeId}${SEPARATOR}${room}`;
  }

  /** Long enough to survive two missed refreshes. */
  private entryLifetimeMs(): number {
    return this.options.refreshMs * 3;
  }
}
