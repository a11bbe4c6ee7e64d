// The auth module's entry: what the rest of the server and the tests may use of it; its other
// files are its own (docs/architecture.md, "Modules and their entries").

export { authRoutes } from './auth.routes.ts';
export { changePassword, resendConfirmation } from './auth.service.ts';
export { OUTSTANDING_LINKS_PER_MAILBOX, pruneUserTokens } from './auth-limits.ts';
export { mailSecurityNotice } from './security-mails.ts';
export {
  createSession,
  createSessionCache,
  findSessionByToken,
  findSessionsByTokens,
  listOwnSessions,
  revokeOwnSessions,
  revokeSessions,
  writeSessionTouches,
} from './sessions.service.ts';
export { sessions } from './sessions.table.ts';
export { assertStaffSecondFactor, lacksRequiredSecondFactor } from './two-factor.gate.ts';
export {
  findSessionsAwaitingSecondFactor,
  hasTwoFactorEnabled,
  removeTwoFactor,
  resealTwoFactorSecrets,
} from './two-factor.service.ts';
export { twoFactor } from './two-factor.table.ts';
export { userTokens } from './user-tokens.table.ts';
