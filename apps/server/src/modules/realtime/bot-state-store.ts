import type { BotState } from '@bot/contracts';

/** A state written by the connection that holds the bot (its socket id). */
export interface HeldState {
  state: BotState;
  holder: string;
}

/**
 * The latest state of every online bot, whichever node holds its socket: an admin snapshot on any
 * node lists the whole fleet. Each bot is held by one connection; a newer one `claim`s it and the
 * older one's writes and release are then ignored, so "one socket per hwid" holds across nodes.
 * In memory on one node; in Redis (`RedisBotStateStore`) when several share it.
 */
export interface BotStateStore {
  /** `holder` now holds the bot, replacing whoever held it before. */
  claim(entry: HeldState, ttlMs: number): Promise<void>;
  /** Writes the latest states; answers the hwids whose bot another connection has taken over. */
  update(entries: HeldState[], ttlMs: number): Promise<string[]>;
  /** Forgets the bot when `holder` still holds it; true when it did (the bot is now offline). */
  release(hwid: string, holder: string): Promise<boolean>;
  /**
   * Removes and answers the bots nobody wrote since `silentSince`: their node died without
   * releasing them. Called by every node; each bot is answered to one of them only.
   */
  reapSilent(silentSince: number): Promise<BotState[]>;
  get(hwid: string): Promise<BotState | undefined>;
  list(): Promise<BotState[]>;
  count(): Promise<number>;
  close(): Promise<void>;
}

/** One node: the states live here, and this node's own silence sweep sees every bot. */
export class InMemoryBotStateStore implements BotStateStore {
  private readonly held = new Map<string, HeldState>();

  async claim(entry: HeldState): Promise<void> {
    this.held.set(entry.state.hwid, entry);
  }

  async update(entries: HeldState[]): Promise<string[]> {
    const lost: string[] = [];
    for (const entry of entries) {
      const current = this.held.get(entry.state.hwid);
      if (current?.holder === entry.holder) current.state = entry.state;
      else lost.push(entry.state.hwid);
    }
    return lost;
  }

  async release(hwid: string, holder: string): Promise<boolean> {
    if (this.held.get(hwid)?.holder !== holder) return false;
    this.held.delete(hwid);
    return true;
  }

  async reapSilent(): Promise<BotState[]> {
    return [];
  }

  async get(hwid: string): Promise<BotState | undefined> {
    return this.held.get(hwid)?.state;
  }

  async list(): Promise<BotState[]> {
    return [...this.held.values()].map((entry) => entry.state);
  }

  async count(): Promise<number> {
    return this.held.size;
  }

  async close(): Promise<void> {
    this.held.clear();
  }
}
