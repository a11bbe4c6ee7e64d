// The releases module's entry: what the rest of the server and the tests may use of it; its other
// files are its own (docs/architecture.md, "Modules and their entries").
export { ADOPTION_SAMPLE_MS, pruneVersionSamples, sampleVersions } from './release-adoption.ts';
export { checkRollouts, type HaltedRelease, haltedReleases } from './release-health.ts';
export { advanceRollouts, changeRollout, updateFor } from './release-rollouts.ts';
export { releasesRoutes } from './releases.routes.ts';
export { createRelease, expireStaleDrafts, publishRelease, storeReleasePart } from './releases.service.ts';
export { agentVersionSamples } from './releases.table.ts';
