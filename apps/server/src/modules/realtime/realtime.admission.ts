import type { Server as HttpServer, IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { ERRORS, type ErrorCode, SOCKET_PATH } from '@bot/contracts';
import { Counter } from 'prom-client';
import proxyaddr from 'proxy-addr';
import type { AppContext } from '../../context.ts';
import { clientAddressOf, rateLimitAddress, type TrustProxy } from '../../core/client-address.ts';
import { writeRawRefusal } from '../../core/error-handler.ts';
import { AppError } from '../../core/errors.ts';
import { OVERLOADED_RETRY_AFTER_S } from '../../core/load-monitor.ts';
import type { HubServer } from './realtime.types.ts';

type UpgradeListener = (request: IncomingMessage, socket: Duplex, head: Buffer) => void;
type RequestListener = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * Who may even open a socket, decided before Socket.IO sees the request and before any
 * authentication work. Browsers must come from the site itself (CORS does not stop websockets; bots
 * send no Origin), and handshakes are limited per source address: 1,000 handshakes from one address
 * slowed every other socket. No address is exempt unless the operator lists it
 * (SOCKET_HANDSHAKE_ALLOWLIST: the simulator, benchmarks): exempting loopback switched the limit off
 * behind a local proxy, where every client looks like 127.0.0.1.
 *
 * Refusals answer in the one `{error, code}` shape (engine.io answered in its own): a foreign origin
 * 403, an overloaded node 503 to bots, past the limit 429 with Retry-After, plain HTTP on the
 * socket path 400 (WebSocket only). Runs
 * in front of engine.io's listeners, so it is installed once Socket.IO is attached to the server.
 */
export function admitHandshakes(
  ctx: Pick<AppContext, 'limiter' | 'config' | 'load' | 'metrics'>,
  server: HttpServer,
  trustProxy: TrustProxy,
): void {
  const refusals = new Counter({
    name: 'socket_handshakes_refused_total',
    help: 'Socket handshakes refused before Socket.IO, by code (FORBIDDEN, OVERLOADED, RATE_LIMITED)',
    labelNames: ['code'],
    registers: [ctx.metrics.registry],
  });
  // Every series from the start, at 0: an alert on the rate of refusals finds them before the first one.
  for (const code of ['FORBIDDEN', 'OVERLOADED', 'RATE_LIMITED'] satisfies ErrorCode[])
    refusals.inc({ code }, 0);
  const refuse = (socket: Duplex, status: number, code: ErrorCode, headers: Record<string, string> = {}) => {
    refusals.inc({ code });
    writeRefusal(socket, status, code, headers);
  };
  const allowedOrigin = new URL(ctx.config.publicUrl).origin;
  const allowlist = ctx.config.socketHandshakeAllowlist;
  const isExempt = allowlist.length > 0 ? proxyaddr.compile(allowlist) : () => false;
  const isOnSocketPath = (request: IncomingMessage) => request.url?.startsWith(`${SOCKET_PATH}/`) === true;

  const upgrades = server.listeners('upgrade') as UpgradeListener[];
  server.removeAllListeners('upgrade');
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const admit = () => {
      for (const listener of upgrades) listener.call(server, request, socket, head);
    };
    if (!isOnSocketPath(request)) return admit();
    if (!isOriginAllowed(request, allowedOrigin)) return refuse(socket, 403, 'FORBIDDEN');
    // An overloaded node takes no new bot (no Origin: not a browser) and says so before any work:
    // behind nginx the 503 sends the handshake to the next node (decision 911).
    if (ctx.load.isOverloaded && request.headers.origin === undefined) {
      return refuse(socket, 503, 'OVERLOADED', { 'Retry-After': String(OVERLOADED_RETRY_AFTER_S) });
    }
    const address = clientAddressOf(request, trustProxy);
    if (isExempt(address, 0)) return admit();
    ctx.limiter.hit('socketHandshake', rateLimitAddress(address)).then(admit, (error: unknown) => {
      const retryAfter = error instanceof AppError ? error.retryAfter : undefined;
      refuse(socket, 429, 'RATE_LIMITED', retryAfter ? { 'Retry-After': String(retryAfter) } : {});
    });
  });

  const requests = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (!isOnSocketPath(request)) {
      for (const listener of requests) listener.call(server, request, response);
      return;
    }
    const code = 'WEBSOCKET_REQUIRED';
    response
      .writeHead(ERRORS[code].status, {
        'content-type': 'application/json; charset=utf-8',
        'cache-control': 'no-store',
      })
      .end(JSON.stringify({ error: ERRORS[code].message, code }));
  });
}

function writeRefusal(
  socket: Duplex,
  status: number,
  code: ErrorCode,
  headers: Record<string, string>,
): void {
  socket.on('error', () => undefined); // the peer may already be gone
  writeRawRefusal(socket, status, code, headers);
  socket.destroy();
}

/** The raw request holds headers and buffers for the life of the socket: read what we need, drop it. */
export function keepOnlyHandshakeFacts(io: HubServer, trustProxy: TrustProxy): void {
  io.engine.on('connection', (raw: { request: IncomingMessage | null; meta?: unknown }) => {
    const request = raw.request;
    if (!request) return;
    const query = (request as IncomingMessage & { _query?: Record<string, string> })._query ?? {};
    raw.meta = {
      queryHwid: typeof query.hwid === 'string' ? query.hwid : undefined,
      ip: clientAddressOf(request, trustProxy),
    };
    raw.request = null;
  });
}

function isOriginAllowed(request: IncomingMessage, allowedOrigin: string): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  if (origin === allowedOrigin) return true;
  try {
    return new URL(origin).host === request.headers.host;
  } catch {
    return false;
  }
}
