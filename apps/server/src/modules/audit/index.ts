// The audit module's entry: what the rest of the server and the tests may use of it; its other
// files are its own (docs/architecture.md, "Modules and their entries").
export { auditRoutes } from './audit.routes.ts';
export {
  type AuditActor,
  listAudit,
  listOwnActionsSince,
  pruneAuditLog,
  recordRefusedAttempt,
  writeAudit,
} from './audit.service.ts';
export { auditLog } from './audit.table.ts';
