// The licensing module's entry: what the rest of the server and the tests may use of it; its other
// files are its own (docs/architecture.md, "Modules and their entries").
export {
  createRootKeyFile,
  establishDevelopmentKeySet,
  findCurrentKeySet,
  keySetProblems,
  loadDevelopmentRoot,
  loadRootKey,
  type RootKey,
  signKeySet,
} from './key-set.service.ts';
export { keySets } from './key-sets.table.ts';
export { issueLease, signLease } from './lease.service.ts';
export { jwksRoutes, signingKeysAdminRoutes } from './licensing.routes.ts';
export { currentSigner, resealSigningKeys } from './signing-keys.service.ts';
export { signingKeys } from './signing-keys.table.ts';
