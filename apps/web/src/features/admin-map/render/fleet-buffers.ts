import { BOT_STATUSES, type BotState, type BotStatus, versionMatches } from '@bot/contracts';

const STATUS_INDEX = new Map<BotStatus, number>(BOT_STATUSES.map((status, index) => [status, index]));
export const STATUS_COUNT = BOT_STATUSES.length;

export interface MapFilter {
  /** Statuses shown; empty means all. */
  statuses: ReadonlySet<BotStatus>;
  /** Case-insensitive part of the owner's username; '' means all. */
  owner: string;
  /** Agent version or its start (`versionMatches`); '' means all. */
  version: string;
}

/**
 * Every game account on the map in typed arrays (struct of arrays), outside React: one slot per
 * account, reused when an account leaves. The renderer reads these arrays each frame it draws.
 */
export class FleetBuffers {
  capacity = 0;
  /** Slots in use or freed: the renderer loops over [0, highWater). */
  highWater = 0;
  /** Live accounts. */
  size = 0;
  /** Live accounts that pass the filter. */
  visibleCount = 0;
  x = new Float32Array(0);
  y = new Float32Array(0);
  status = new Uint8Array(0);
  owner = new Int32Array(0);
  /** 1 when the slot holds an account that passes the filter. */
  visible = new Uint8Array(0);
  alive = new Uint8Array(0);
  hwidOf: string[] = [];
  nameOf: string[] = [];
  characterOf: string[] = [];

  readonly owners: string[] = [];
  private readonly ownerIndex = new Map<string, number>();
  private ownerMatch = new Uint8Array(0);
  private readonly byHwid = new Map<string, number[]>();
  private readonly free: number[] = [];
  private readonly versionByHwid = new Map<string, string>();
  private filter: MapFilter = { statuses: new Set(), owner: '', version: '' };
  /** Bumped on every change (the renderer redraws when it moves). */
  version = 0;

  constructor(initialCapacity = 1024) {
    this.grow(initialCapacity);
  }

  private grow(capacity: number): void {
    const copy = <T extends Float32Array | Uint8Array | Int32Array>(old: T, make: (n: number) => T): T => {
      const next = make(capacity);
      next.set(old);
      return next;
    };
    this.x = copy(this.x, (n) => new Float32Array(n));
    this.y = copy(this.y, (n) => new Float32Array(n));
    this.status = copy(this.status, (n) => new Uint8Array(n));
    this.owner = copy(this.owner, (n) => new Int32Array(n));
    this.visible = copy(this.visible, (n) => new Uint8Array(n));
    this.alive = copy(this.alive, (n) => new Uint8Array(n));
    this.capacity = capacity;
  }

  private allocate(): number {
    const reused = this.free.pop();
    if (reused !== undefined) return reused;
    if (this.highWater === this.capacity) this.grow(this.capacity * 2);
    return this.highWater++;
  }

  private ownerOf(username: string): number {
    let index = this.ownerIndex.get(username);
    if (index === undefined) {
      index = this.owners.length;
      this.owners.push(username);
      this.ownerIndex.set(username, index);
      if (this.ownerMatch.length <= index) {
        const next = new Uint8Array(Math.max(64, this.ownerMatch.length * 2));
        next.set(this.ownerMatch);
        this.ownerMatch = next;
      }
      this.ownerMatch[index] = this.matchesOwner(username) ? 1 : 0;
    }
    return index;
  }

  private matchesOwner(username: string): boolean {
    return this.filter.owner === '' || username.toLowerCase().includes(this.filter.owner);
  }

  private refreshVisible(slot: number): void {
    const was = this.visible[slot] ?? 0;
    const shown =
      this.alive[slot] === 1 &&
      this.ownerMatch[this.owner[slot] ?? 0] === 1 &&
      versionMatches(this.versionByHwid.get(this.hwidOf[slot] ?? '') ?? '', this.filter.version) &&
      (this.filter.statuses.size === 0 ||
        this.filter.statuses.has(BOT_STATUSES[this.status[slot] ?? 0] as BotStatus))
        ? 1
        : 0;
    this.visible[slot] = shown;
    this.visibleCount += shown - was;
  }

  /** Writes a bot's accounts (replacing what the bot had). */
  setBot(state: BotState): void {
    const slots = this.byHwid.get(state.hwid) ?? [];
    const owner = this.ownerOf(state.owner.username);
    this.versionByHwid.set(state.hwid, state.version);
    const accounts = state.accounts;
    while (slots.length > accounts.length) this.release(slots.pop() as number);
    for (let index = 0; index < accounts.length; index++) {
      const account = accounts[index] as BotState['accounts'][number];
      let slot = slots[index];
      if (slot === undefined) {
        slot = this.allocate();
        slots.push(slot);
        this.alive[slot] = 1;
        this.size++;
      }
      this.x[slot] = account.position.x;
      this.y[slot] = account.position.y;
      this.status[slot] = STATUS_INDEX.get(account.status) ?? 0;
      this.owner[slot] = owner;
      this.hwidOf[slot] = state.hwid;
      this.nameOf[slot] = account.name;
      this.characterOf[slot] = account.character;
      this.refreshVisible(slot);
    }
    if (slots.length > 0) this.byHwid.set(state.hwid, slots);
    else this.byHwid.delete(state.hwid);
    this.version++;
  }

  private release(slot: number): void {
    if (this.visible[slot]) this.visibleCount--;
    this.visible[slot] = 0;
    this.alive[slot] = 0;
    this.size--;
    this.free.push(slot);
  }

  removeBot(hwid: string): void {
    const slots = this.byHwid.get(hwid);
    if (!slots) return;
    for (const slot of slots) this.release(slot);
    this.byHwid.delete(hwid);
    this.versionByHwid.delete(hwid);
    this.version++;
  }

  clear(): void {
    for (const hwid of [...this.byHwid.keys()]) this.removeBot(hwid);
  }

  setFilter(filter: MapFilter): void {
    this.filter = {
      statuses: filter.statuses,
      owner: filter.owner.trim().toLowerCase(),
      version: filter.version.trim(),
    };
    for (let index = 0; index < this.owners.length; index++) {
      this.ownerMatch[index] = this.matchesOwner(this.owners[index] as string) ? 1 : 0;
    }
    for (let slot = 0; slot < this.highWater; slot++) this.refreshVisible(slot);
    this.version++;
  }

  slotsOf(hwid: string): readonly number[] {
    return this.byHwid.get(hwid) ?? [];
  }

  botCount(): number {
    return this.byHwid.size;
  }
}
