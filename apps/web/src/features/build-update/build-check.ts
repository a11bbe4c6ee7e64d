/** True when the server announces a build other than the one running (ids are opaque, not ordered). */
export function isNewerBuild(runningBuildId: string, latestBuildId: string | undefined | null): boolean {
  return Boolean(latestBuildId) && latestBuildId !== runningBuildId;
}

/** Reads the latest build id the server holds (dist/build.json), bypassing every cache. */
export async function fetchLatestBuildId(fetchImpl: typeof fetch = fetch): Promise<string | undefined> {
  try {
    const response = await fetchImpl('/build.json', { cache: 'no-store' });
    if (!response.ok) return undefined;
    const body = (await response.json()) as { buildId?: unknown };
    return typeof body.buildId === 'string' ? body.buildId : undefined;
  } catch {
    return undefined;
  }
}

/** Error messages browsers give when a lazy chunk cannot be loaded (old build removed, offline). */
export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error ?? '');
  return /dynamically imported module|Importing a module script failed|error loading dynamically|Unable to preload CSS/i.test(
    message,
  );
}
