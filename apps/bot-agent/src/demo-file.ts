/** What `npm run seed:demo` writes and the simulator reads (`DATA_DIR/demo-bots.json`). */
export const DEMO_BOTS_FILE_VERSION = 1;

/** The agent version the seed opens its bot sessions with (files without `agentVersion` used it). */
export const DEMO_AGENT_VERSION = '1.0.0';

export interface DemoBot {
  username: string;
  accessKey: string;
  hwid: string;
  accounts: string[];
  /** A bot session opened by the seed (the bot-session route is rate-limited per IP). */
  session: { token: string; expiresAt: string; lease?: string } | null;
}

export interface DemoBotsFile {
  version: typeof DEMO_BOTS_FILE_VERSION;
  createdAt: string;
  /** The server the seed wrote for (`http://HOST:PORT`): the simulator's default. */
  serverUrl: string;
  /** The version the seed's bot sessions were opened with. */
  agentVersion?: string;
  password: string;
  bots: DemoBot[];
}
