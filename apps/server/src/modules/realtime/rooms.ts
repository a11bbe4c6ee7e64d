const BOT_PREFIX = 'bot:';
const BOT_LOG_PREFIX = 'bot-log:';

/** Socket.IO room names: always built here, never inline. */
export const rooms = {
  /** Browsers watching one bot (its owner, staff). */
  bot: (hwid: string): string => `${BOT_PREFIX}${hwid}`,
  /** The hwid of a bot's watchers' room, or undefined for another room. */
  hwidOfBot: (room: string): string | undefined =>
    room.startsWith(BOT_PREFIX) ? room.slice(BOT_PREFIX.length) : undefined,
  /** The bot agent socket of one PC (at most one). */
  agent: (hwid: string): string => `agent:${hwid}`,
  /** Journal sockets reading one bot's log (decision 209). */
  botLog: (hwid: string): string => `${BOT_LOG_PREFIX}${hwid}`,
  /** The hwid of a journal room, or undefined for another room. */
  hwidOfBotLog: (room: string): string | undefined =>
    room.startsWith(BOT_LOG_PREFIX) ? room.slice(BOT_LOG_PREFIX.length) : undefined,
  /** Staff watching the whole fleet. */
  admins: 'admins',
  /** Staff maps following a viewport (decision 206): online counts only, states come per map. */
  mapViewers: 'map-viewers',
  /** Every browser socket (settings broadcasts). */
  browsers: 'browsers',
  /** Browser sockets of one web session (closed when it is revoked). */
  session: (sessionId: string): string => `session:${sessionId}`,
  /** Browser sockets of one user. */
  user: (userId: string): string => `user:${userId}`,
  /** Bot agent sockets of one user. */
  userAgents: (userId: string): string => `agents:${userId}`,
} as const;
