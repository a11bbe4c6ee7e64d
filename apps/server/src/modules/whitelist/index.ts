// The whitelist module's entry: what the rest of the server and the tests may use of it; its other
// files are its own (docs/architecture.md, "Modules and their entries").
export { whitelistRoutes } from './whitelist.routes.ts';
export {
  addWhitelistEntryForCustomer,
  listWhitelistedAccountNames,
  listWhitelistedAccountNamesOfUsers,
} from './whitelist.service.ts';
export { whitelistEntries } from './whitelist.table.ts';
