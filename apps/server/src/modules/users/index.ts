// The users module's entry: what the rest of the server and the tests may use of it; its other
// files are its own (docs/architecture.md, "Modules and their entries").
export { ensureFirstAdministrator } from './first-administrator.ts';
export {
  claimHwid,
  createUser,
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
  releaseHwid,
  resealBotKeys,
  rotateBotKey,
  setBan,
  startHwidCooldown,
  updateDiscordId,
  updatePasswordHash,
} from './users.service.ts';
export { type UserRow, userIdColumn, users } from './users.table.ts';
