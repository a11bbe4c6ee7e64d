import { describe, expect, it } from 'vitest';
import { RELOAD_GUARD_MS, RELOAD_GUARD_STORAGE_KEY } from './constants.ts';
import { createMemoryStorage, createReloadGuard } from './reload-guard.ts';

function setup(start = 1_000_000) {
  let now = start;
  let reloads = 0;
  const storage = createMemoryStorage();
  const guard = createReloadGuard({ storage, now: () => now, reload: () => reloads++ });
  return {
    guard,
    storage,
    advance: (ms: number) => {
      now += ms;
    },
    reloads: () => reloads,
  };
}

describe('reload guard', () => {
  it('uses the spec value of 10 s', () => {
    expect(RELOAD_GUARD_MS).toBe(10_000);
  });

  it('reloads the first time and remembers when', () => {
    const { guard, storage, reloads } = setup();
    expect(guard.reloadOnce('test')).toBe(true);
    expect(reloads()).toBe(1);
    expect(storage.data.get(RELOAD_GUARD_STORAGE_KEY)).toBe('1000000');
  });

  it('refuses a second reload within 10 s, allows it after', () => {
    const { guard, advance, reloads } = setup();
    guard.reloadOnce('first');
    advance(9_999);
    expect(guard.reloadOnce('second')).toBe(false);
    expect(reloads()).toBe(1);
    advance(1);
    expect(guard.reloadOnce('third')).toBe(true);
    expect(reloads()).toBe(2);
  });

  it('survives a reload: the guard is read back from storage', () => {
    const storage = createMemoryStorage();
    let reloads = 0;
    createReloadGuard({ storage, now: () => 5_000, reload: () => reloads++ }).reloadOnce('before');
    const afterReload = createReloadGuard({ storage, now: () => 8_000, reload: () => reloads++ });
    expect(afterReload.reloadOnce('after')).toBe(false);
    expect(reloads).toBe(1);
  });

  it('ignores garbage or a clock that went backwards', () => {
    const storage = createMemoryStorage();
    storage.setItem(RELOAD_GUARD_STORAGE_KEY, 'nonsense');
    expect(createReloadGuard({ storage, now: () => 1, reload: () => {} }).canReload()).toBe(true);
    storage.setItem(RELOAD_GUARD_STORAGE_KEY, '50000');
    expect(createReloadGuard({ storage, now: () => 1000, reload: () => {} }).canReload()).toBe(true);
  });
});
