import type { IncomingMessage } from 'node:http';
import proxyaddr from 'proxy-addr';
import type { AppContext } from '../../context.ts';
import { clientAddressOf, type TrustProxy } from '../../core/client-address.ts';
import type { HubServer } from './realtime.types.ts';

type AllowRequest = (
  request: IncomingMessage,
  callback: (error: string | null | undefined, isAllowed: boolean) => void,
) => void;

/**
 * Socket.IO's `allowRequest`: who may even open a socket, decided before any authentication work.
 * Browsers must come from the site itself (CORS does not stop websockets; bots send no Origin),
 * and handshakes are limited per source address: 1,000 handshakes from one address slowed every
 * other socket. No address is exempt unless the operator lists it (SOCKET_HANDSHAKE_ALLOWLIST: the
 * simulator, benchmarks): exempting loopback switched the limit off behind a local proxy, where
 * every client looks like 127.0.0.1.
 */
export function admitHandshakes(
  ctx: Pick<AppContext, 'limiter' | 'config'>,
  trustProxy: TrustProxy,
): AllowRequest {
  const allowedOrigin = new URL(ctx.config.publicUrl).origin;
  const allowlist = ctx.config.socketHandshakeAllowlist;
  const isExempt = allowlist.length > 0 ? proxyaddr.compile(allowlist) : () => false;
  return (request, callback) => {
    if (!isOriginAllowed(request, allowedOrigin)) return callback(null, false);
    const address = clientAddressOf(request, trustProxy);
    if (isExempt(address, 0)) return callback(null, true);
    ctx.limiter.hit('socketHandshake', address).then(
      () => callback(null, true),
      () => callback('RATE_LIMITED', false),
    );
  };
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
