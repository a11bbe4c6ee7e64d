/**
 * The public pages' calls whose answers are checked with the contracts' zod schemas. The pages import
 * this module on first use (submit, activation link), not to render: zod stays out of the JavaScript a
 * visitor downloads for them (docs/decisions/103). The account area needs these chunks anyway.
 */
export { activate } from './api/activate.ts';
export { register } from './api/register.ts';
export { abandonSignIn, completeSecondFactor, type PendingSignIn, signIn } from './session.ts';
