import type { RuntimeConfig } from '@bot/contracts';
import { DEFAULT_BUILD_CHECK_INTERVAL_MS } from './constants.ts';

let current: RuntimeConfig | undefined;

/** Hand-checked (not zod) so the entry chunk stays free of zod; the shape is contracts' runtimeConfigSchema. */
export function parseRuntimeConfig(raw: unknown): RuntimeConfig | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const { apiBaseUrl, socketUrl, buildId, buildCheckIntervalMs } = raw as Record<string, unknown>;
  if (typeof apiBaseUrl !== 'string' || typeof socketUrl !== 'string' || typeof buildId !== 'string')
    return undefined;
  if (
    typeof buildCheckIntervalMs !== 'number' ||
    !Number.isInteger(buildCheckIntervalMs) ||
    buildCheckIntervalMs <= 0
  ) {
    return undefined;
  }
  return { apiBaseUrl, socketUrl, buildId, buildCheckIntervalMs };
}

/** Reads the public runtime config the server serves at /config.json (never baked into the bundle). */
async function loadRuntimeConfig(fetchImpl: typeof fetch = fetch): Promise<RuntimeConfig> {
  try {
    const response = await fetchImpl('/config.json', {
      cache: 'no-store',
      headers: { accept: 'application/json' },
    });
    if (!response.ok) throw new Error(`config.json: HTTP ${response.status}`);
    const parsed = parseRuntimeConfig(await response.json());
    if (!parsed) throw new Error('config.json: invalid shape');
    current = parsed;
  } catch (error) {
    console.warn('Configuration publique indisponible, valeurs par défaut utilisées.', error);
    current = {
      apiBaseUrl: '/api',
      socketUrl: '',
      buildId: typeof __BUILD_ID__ === 'string' ? __BUILD_ID__ : 'dev',
      buildCheckIntervalMs: DEFAULT_BUILD_CHECK_INTERVAL_MS,
    };
  }
  return current;
}

let loading: Promise<RuntimeConfig> | undefined;

/**
 * The runtime config, read once. main.tsx starts the read at start-up but does not wait for it: the
 * first page renders meanwhile (the landing page needs none of it). What needs it waits for it: the
 * API client before each call, the account and admin layouts' loaders before their pages (whose socket
 * and links read it synchronously), the build checks.
 */
export function whenRuntimeConfig(): Promise<RuntimeConfig> {
  loading ??= loadRuntimeConfig();
  return loading;
}

/** The config once `whenRuntimeConfig()` has resolved (throws before). */
export function getRuntimeConfig(): RuntimeConfig {
  if (!current) throw new Error('Runtime config not loaded yet');
  return current;
}
