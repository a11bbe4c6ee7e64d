// The two-factor module's entry: what the rest of the server and the tests may use of it; its other
// files are its own (docs/architecture.md, "Modules and their entries").
export { assertStaffSecondFactor, lacksRequiredSecondFactor } from './two-factor.gate.ts';
export { secondFactorRoutes, twoFactorRoutes } from './two-factor.routes.ts';
export {
  findSessionsAwaitingSecondFactor,
  hasTwoFactorEnabled,
  removeTwoFactor,
  resealTwoFactorSecrets,
} from './two-factor.service.ts';
export { twoFactor } from './two-factor.table.ts';
