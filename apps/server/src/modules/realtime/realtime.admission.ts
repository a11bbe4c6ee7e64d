import type { IncomingMessage } from 'node:http';
import { clientAddressOf, type TrustProxy } from '../../core/client-address.ts';
import type { RateLimiter } from '../../core/rate-limiter.ts';
import type { HubServer } from './realtime.types.ts';

type AllowRequest = (
  request: IncomingMessage,
  callback: (error: string | null | undefined, isAllowed: boolean) => void,
) => void;

/**
 * Socket.IO's `allowRequest`: who may even open a socket, decided before any authentication work.
 * Browsers must come from the site itself (CORS does not stop websockets; bots send no Origin),
 * and handshakes are limited per source address: 1,000 handshakes from one address slowed every
 * other socket. Machine-local peers (the simulator, benchmarks, a local agent) are not the remote
 * flood this guards against.
 */
export function admitHandshakes(input: {
  limiter: RateLimiter;
  allowedOrigin: string;
  trustProxy: TrustProxy;
}): AllowRequest {
  return (request, callback) => {
    if (!isOriginAllowed(request, input.allowedOrigin)) return callback(null, false);
    const address = clientAddressOf(request, input.trustProxy);
    if (isLoopback(address)) return callback(null, true);
    input.limiter.hit('socketHandshake', address).then(
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

/** 127.0.0.0/8, ::1 and their IPv4-mapped forms. */
function isLoopback(address: string): boolean {
  return address === '::1' || /^(::ffff:)?127\./.test(address);
}
