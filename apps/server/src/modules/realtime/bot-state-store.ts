import type { BotState } from '@bot/contracts';

/**
 * Where the latest state of every online bot lives. In memory on one node; a Redis implementation
 * (same interface) makes presence and counts cluster-wide when `REDIS_URL` is set.
 */
export interface BotStateStore {
  get(hwid: string): Promise<BotState | undefined>;
  set(state: BotState): Promise<void>;
  delete(hwid: string): Promise<void>;
  list(): Promise<BotState[]>;
  count(): Promise<number>;
  close(): Promise<void>;
}

export class InMemoryBotStateStore implements BotStateStore {
  private readonly states = new Map<string, BotState>();

  async get(hwid: string): Promise<BotState | undefined> {
    return this.states.get(hwid);
  }

  async set(state: BotState): Promise<void> {
    this.states.set(state.hwid, state);
  }

  async delete(hwid: string): Promise<void> {
    this.states.delete(hwid);
  }

  async list(): Promise<BotState[]> {
    return [...this.states.values()];
  }

  async count(): Promise<number> {
    return this.states.size;
  }

  async close(): Promise<void> {
    this.states.clear();
  }
}
