/** Socket.IO room names: always built here, never inline. */
export const rooms = {
  /** Browsers watching one bot (its owner, staff). */
  bot: (hwid: string): string => `bot:${hwid}`,
  /** The bot agent socket of one PC (at most one). */
  agent: (hwid: string): string => `agent:${hwid}`,
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
