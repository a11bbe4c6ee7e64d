/** Telling the user a new build is out, and recognising a chunk a new build removed. */
export { isChunkLoadError } from './build-check.ts';
export { startBuildUpdates } from './start-build-updates.ts';
