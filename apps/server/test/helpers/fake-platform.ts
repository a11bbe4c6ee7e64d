import { createHash } from 'node:crypto';
import {
  createServer,
  type Server as HttpServer,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { type BotClient, createBotClient } from '@bot/bot-agent';
import { KEY_SET_PATH, KEY_SET_TYPE, type KeySetAnswer, LEASE_TYPE } from '@bot/contracts';
import { type CryptoKey, calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { type Socket as ServerSocket, Server as SocketServer } from 'socket.io';
import { loadDevelopmentRoot } from '../../src/modules/licensing/index.ts';
import type { TestServer } from '../harness.ts';

/**
 * A fake platform (a hosts entry, a rogue Wi-Fi, a proxy on the path) for the attack tests: a real
 * loopback HTTP + Socket.IO server whose answers the test writes, in front of or instead of the real
 * test server. The agents pin the genuine root of the real server (docs/licensing.md, decision 912).
 */

export const sha = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');
export const now = () => Math.floor(Date.now() / 1000);
export const TEN_YEARS = 10 * 365 * 86_400;

/** An Ed25519 key of the attacker's (or a test's), with its public JWK. */
export async function edKey(purpose?: 'lease' | 'release') {
  const { publicKey, privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  const jwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(jwk);
  return {
    privateKey,
    jwk: { ...jwk, kid, alg: 'EdDSA', use: 'sig', ...(purpose ? { purpose } : {}) } as JWK,
  };
}

type Handler = (
  req: IncomingMessage,
  body: string,
) => Promise<{ status: number; json?: unknown; raw?: Buffer } | undefined>;

/** A 10-year lease (10 years of grace too) for `hwid`, signed by `key`. */
export async function leaseWith(
  key: { privateKey: CryptoKey; jwk: JWK } | { kid: string; privateKey: CryptoKey },
  hwid: string,
  typ = LEASE_TYPE,
) {
  const kid = 'jwk' in key ? (key.jwk.kid as string) : key.kid;
  return new SignJWT({
    sub: 'anyone',
    hwid: sha(hwid),
    packages: [],
    entitlements: ['can_useGathering', 'can_useTreasure'],
    accounts: [],
    grace: TEN_YEARS,
    minVersion: '0.0.0',
  })
    .setProtectedHeader({ alg: 'EdDSA', kid, typ })
    .setIssuedAt(now())
    .setExpirationTime(now() + TEN_YEARS)
    .sign(key.privateKey);
}

export function sessionAnswer(hwid: string, lease: string, update: unknown = null) {
  return {
    hwid,
    token: 'fake-session',
    expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
    whitelist: [],
    lease,
    update,
  };
}

/** What the real server publishes at KEY_SET_PATH. */
export async function genuineKeySetAnswer(server: TestServer): Promise<KeySetAnswer> {
  return (await (await fetch(`${server.url}${KEY_SET_PATH}`)).json()) as KeySetAnswer;
}

/** A key set signed by the genuine (development) root, with the claims the test chooses. */
export async function rootSigned(server: TestServer, claims: Record<string, unknown>) {
  const root = await loadDevelopmentRoot(server.ctx);
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'EdDSA', kid: root.kid, typ: KEY_SET_TYPE })
    .sign(root.privateKey);
}

/** Fake platforms and agents made by one test file, all closed by `close()`. */
export function attackBench(server: () => TestServer) {
  const clients: BotClient[] = [];
  const closers: Array<() => Promise<void>> = [];

  /** A real loopback HTTP + Socket.IO server whose answers the test writes. */
  async function fakePlatform(handler: Handler) {
    const asked: string[] = [];
    const http: HttpServer = createServer((request: IncomingMessage, response: ServerResponse) => {
      asked.push(`${request.method} ${request.url}`);
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        void handler(request, body).then((answer) => {
          if (!answer) {
            response.writeHead(404, { 'content-type': 'application/json' });
            return response.end('{"code":"NOT_FOUND"}');
          }
          if (answer.raw) {
            response.writeHead(answer.status, { 'content-type': 'application/octet-stream' });
            return response.end(answer.raw);
          }
          response.writeHead(answer.status, { 'content-type': 'application/json' });
          response.end(JSON.stringify(answer.json));
        });
      });
    });
    const io = new SocketServer(http);
    const sockets: ServerSocket[] = [];
    io.on('connection', (socket) => {
      sockets.push(socket);
      socket.on('authenticate', (_input: unknown, ack: (answer: { ok: boolean }) => void) =>
        ack({ ok: true }),
      );
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    const close = async () => {
      await io.close();
      await new Promise((resolve) => http.close(resolve));
    };
    closers.push(close);
    return { url, asked, sockets, close };
  }

  /** Forwards a request to the real server and answers its status and JSON body. */
  async function forward(path: string, method: string | undefined, body: string | undefined) {
    const answer = await fetch(`${server().url}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body || undefined,
    });
    return { status: answer.status, json: (await answer.json()) as Record<string, unknown> };
  }

  /** An unmodified agent pinning the real server's root, talking to `serverUrl`. */
  function agent(serverUrl: string, extra: Partial<Parameters<typeof createBotClient>[0]> = {}) {
    const client = createBotClient({
      serverUrl,
      accessKey: 'bk_whatever',
      hwid: extra.hwid ?? 'victim-pc-0001',
      version: '1.0.0',
      trustRoot: server().trustRoot,
      ...extra,
    });
    const errors: Error[] = [];
    client.on('error', (error) => errors.push(error));
    clients.push(client);
    return { client, errors };
  }

  async function close() {
    for (const client of clients) await client.stop();
    for (const closer of closers) await closer();
  }

  return { fakePlatform, forward, agent, close };
}
