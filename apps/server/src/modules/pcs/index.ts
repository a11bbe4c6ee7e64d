// The PCs module's entry: a customer's PC and its binding (the hwid on the user, the components
// beside it, the unbind allowance), the one place the rest asks about them (decision 014).
export { releasePc } from './pc-binding.ts';
export { bindOrRecognisePc, type PcTimeline } from './pc-identity.ts';
export { getNextHwidResetAt, lastCountedUnbindKind, unbindAllowanceOf } from './unbind-allowance.ts';
