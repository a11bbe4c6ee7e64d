import type { IncomingMessage } from 'node:http';
import proxyaddr from 'proxy-addr';
import type { AppConfig } from '../config.ts';

export type TrustProxy = (address: string, hop: number) => boolean;

/**
 * TRUST_PROXY as a function of (address, hop): Fastify's `trustProxy` for `request.ip`, and the
 * socket handshakes' address below, so both follow one rule. The client is then the rightmost
 * untrusted hop of X-Forwarded-For, never a leftmost entry a client may have forged.
 */
export function trustProxyRule(trust: AppConfig['trustProxy']): TrustProxy {
  if (trust === false) return () => false;
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return proxyaddr.compile(trust);
}

/** The client's address of a raw request (Socket.IO handshakes). */
export function clientAddressOf(request: IncomingMessage, trust: TrustProxy): string {
  return proxyaddr(request, trust);
}
