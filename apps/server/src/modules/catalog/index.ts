// The catalog module's entry: what the rest of the server and the tests may use of it; its other
// files are its own (docs/architecture.md, "Modules and their entries").
export { catalogRoutes } from './catalog.routes.ts';
export { findPackageById, getBuyablePackage, listActivePackages } from './catalog.service.ts';
export { packages } from './catalog.table.ts';
