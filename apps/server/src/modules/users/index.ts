// The users module's entry: what the rest of the server and the tests may use of it; its other
// files are its own (docs/architecture.md, "Modules and their entries").
export { ensureFirstAdministrator } from './first-administrator.ts';
export {
  claimHwid,
  createUser,
  findHwidComponents,
  findHwidsOfUsers,
  findUserByBotKey,
  findUserByEmail,
  findUserByHwid,
  findUserById,
  findUserByLogin,
  findUserByUsername,
  getOrCreateBotKey,
  getUserById,
  lockUser,
  markActivated,
  rebindHwid,
  releaseHwid,
  resealBotKeys,
  rotateBotKey,
  setBan,
  storeBoundComponents,
  updateDiscordId,
  updatePasswordHash,
} from './users.service.ts';
export { hwidComponents, type UserRow, userIdColumn, users } from './users.table.ts';
