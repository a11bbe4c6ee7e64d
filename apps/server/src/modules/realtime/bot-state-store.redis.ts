import type { BotState } from '@bot/contracts';
import type { Redis, Result } from 'ioredis';
import type { BotStateStore, HeldState } from './bot-state-store.ts';

/** One hash per bot (`holder`, `state`) with a TTL, and an index of hwids by last write time. */
const BOT_KEY_PREFIX = 'bp:bot:';
const INDEX_KEY = 'bp:bots';
/** Bots reaped or written per call (a script runs inside Redis, which serves nobody else meanwhile). */
const SCRIPT_BATCH = 500;

// The scripts keep check-and-write atomic, so two nodes never both believe they hold a bot. A claim
// takes the bot whoever held it; an update finding no entry writes it again (Redis restarted empty:
// the holders fill it back).
const CLAIM = `
redis.call('HSET', KEYS[1], 'holder', ARGV[1], 'state', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[5])
return 1`;
// A flush's writes in one call: per-command costs (in Redis and in the client) were most of a
// write. Answers the hwids another holder took meanwhile (their connections here are closed).
const WRITE_HELD = `
local lost = {}
local seen = {}
for i = 4, #ARGV, 3 do
  local hwid, holder = ARGV[i], ARGV[i + 1]
  local key = ARGV[3] .. hwid
  local current = redis.call('HGET', key, 'holder')
  if current and current ~= holder then
    table.insert(lost, hwid)
  else
    redis.call('HSET', key, 'holder', holder, 'state', ARGV[i + 2])
    redis.call('PEXPIRE', key, ARGV[2])
    table.insert(seen, ARGV[1])
    table.insert(seen, hwid)
  end
end
if #seen > 0 then redis.call('ZADD', KEYS[1], unpack(seen)) end
return lost`;
const RELEASE = `
if redis.call('HGET', KEYS[1], 'holder') ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[2])
return 1`;
const REAP = `
local reaped = {}
for _, hwid in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[3])) do
  redis.call('ZREM', KEYS[1], hwid)
  local key = ARGV[2] .. hwid
  table.insert(reaped, hwid)
  table.insert(reaped, redis.call('HGET', key, 'state') or '')
  redis.call('DEL', key)
end
return reaped`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    botClaim(
      key: string,
      index: string,
      holder: string,
      state: string,
      seenAt: number,
      ttlMs: number,
      hwid: string,
    ): Result<number, Context>;
    botWriteHeld(
      index: string,
      seenAt: number,
      ttlMs: number,
      keyPrefix: string,
      ...hwidHolderState: string[]
    ): Result<string[], Context>;
    botRelease(key: string, index: string, holder: string, hwid: string): Result<number, Context>;
    botReap(index: string, silentSince: number, keyPrefix: string, limit: number): Result<string[], Context>;
  }
}

/** The fleet's states in Redis, shared by every node. */
export class RedisBotStateStore implements BotStateStore {
  constructor(private readonly redis: Redis) {
    redis.defineCommand('botClaim', { numberOfKeys: 2, lua: CLAIM });
    redis.defineCommand('botWriteHeld', { numberOfKeys: 1, lua: WRITE_HELD });
    redis.defineCommand('botRelease', { numberOfKeys: 2, lua: RELEASE });
    redis.defineCommand('botReap', { numberOfKeys: 1, lua: REAP });
  }

  async claim(entry: HeldState, ttlMs: number): Promise<void> {
    const { state, holder } = entry;
    await this.redis.botClaim(
      keyOf(state.hwid),
      INDEX_KEY,
      holder,
      JSON.stringify(state),
      Date.now(),
      ttlMs,
      state.hwid,
    );
  }

  async update(entries: HeldState[], ttlMs: number): Promise<string[]> {
    const now = Date.now();
    const lost: string[] = [];
    for (let from = 0; from < entries.length; from += SCRIPT_BATCH) {
      const args: string[] = [];
      for (const { state, holder } of entries.slice(from, from + SCRIPT_BATCH))
        args.push(state.hwid, holder, JSON.stringify(state));
      lost.push(...(await this.redis.botWriteHeld(INDEX_KEY, now, ttlMs, BOT_KEY_PREFIX, ...args)));
    }
    return lost;
  }

  async release(hwid: string, holder: string): Promise<boolean> {
    return (await this.redis.botRelease(keyOf(hwid), INDEX_KEY, holder, hwid)) === 1;
  }

  async reapSilent(silentSince: number): Promise<BotState[]> {
    const flat = await this.redis.botReap(INDEX_KEY, silentSince, BOT_KEY_PREFIX, SCRIPT_BATCH);
    const reaped: BotState[] = [];
    for (let i = 0; i < flat.length; i += 2) {
      const state = parseState(flat[i + 1]);
      if (state) reaped.push(state);
    }
    return reaped;
  }

  async get(hwid: string): Promise<BotState | undefined> {
    return parseState(await this.redis.hget(keyOf(hwid), 'state'));
  }

  async list(): Promise<BotState[]> {
    const hwids = await this.redis.zrange(INDEX_KEY, '0', '-1');
    if (hwids.length === 0) return [];
    const pipeline = this.redis.pipeline();
    for (const hwid of hwids) pipeline.hget(keyOf(hwid), 'state');
    const results = (await pipeline.exec()) ?? [];
    const states: BotState[] = [];
    for (const [error, value] of results) {
      if (error) throw error;
      const state = parseState(value as string | null);
      if (state) states.push(state);
    }
    return states;
  }

  count(): Promise<number> {
    return this.redis.zcard(INDEX_KEY);
  }

  async close(): Promise<void> {
    // The connection belongs to the app (closed with it).
  }
}

function keyOf(hwid: string): string {
  return `${BOT_KEY_PREFIX}${hwid}`;
}

/** States come from our own writes; an expired key (empty) means the bot is gone. */
function parseState(value: string | null | undefined): BotState | undefined {
  return value ? (JSON.parse(value) as BotState) : undefined;
}
