import { RELOAD_GUARD_MS, RELOAD_GUARD_STORAGE_KEY } from './constants.ts';

export interface ReloadGuardDeps {
  storage: Pick<Storage, 'getItem' | 'setItem'>;
  reload: () => void;
  now?: () => number;
  guardMs?: number;
}

/**
 * Reloads at most once per guard window (docs/specification.md §7: 10 s), remembered in sessionStorage so a
 * build or chunk that keeps failing cannot put the tab in a reload loop.
 */
export function createReloadGuard(deps: ReloadGuardDeps) {
  const now = deps.now ?? Date.now;
  const guardMs = deps.guardMs ?? RELOAD_GUARD_MS;

  function canReload(): boolean {
    const last = Number(deps.storage.getItem(RELOAD_GUARD_STORAGE_KEY) ?? Number.NaN);
    return !Number.isFinite(last) || now() - last >= guardMs || now() < last;
  }

  /** Returns true when the reload was started. */
  function reloadOnce(reason: string): boolean {
    if (!canReload()) {
      console.warn(`Rechargement ignoré (${reason}) : déjà rechargé il y a moins de ${guardMs / 1000} s.`);
      return false;
    }
    deps.storage.setItem(RELOAD_GUARD_STORAGE_KEY, String(now()));
    deps.reload();
    return true;
  }

  return { canReload, reloadOnce };
}

export function createMemoryStorage(): Pick<Storage, 'getItem' | 'setItem'> & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (key) => data.get(key) ?? null,
    setItem: (key, value) => {
      data.set(key, value);
    },
  };
}

let browserGuard: ReturnType<typeof createReloadGuard> | undefined;

/** The tab's reload guard (sessionStorage + location.reload). */
export function reloadPageOnce(reason: string): boolean {
  browserGuard ??= createReloadGuard({
    storage: safeSessionStorage(),
    reload: () => window.location.reload(),
  });
  return browserGuard.reloadOnce(reason);
}

function safeSessionStorage(): Pick<Storage, 'getItem' | 'setItem'> {
  try {
    sessionStorage.getItem(RELOAD_GUARD_STORAGE_KEY);
    return sessionStorage;
  } catch {
    return createMemoryStorage();
  }
}
