/** What `npm run seed:demo` writes and the simulator reads (default `data/demo-bots.json`). */
export const DEMO_BOTS_FILE_VERSION = 1;

export interface DemoBot {
  username: string;
  accessKey: string;
  hwid: string;
  accounts: string[];
  /** A bot session opened by the seed (the bot-session route is rate-limited per IP). */
  session: { token: string; expiresAt: string } | null;
}

export interface DemoBotsFile {
  version: typeof DEMO_BOTS_FILE_VERSION;
  createdAt: string;
  serverUrl: string;
  password: string;
  bots: DemoBot[];
}
