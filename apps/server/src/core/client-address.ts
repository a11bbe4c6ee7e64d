import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import proxyaddr from 'proxy-addr';
import type { AppConfig } from '../config.ts';
import { isLoopbackHost } from './installation.ts';

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

/**
 * Who a per-address limit counts (docs/security.md, "Rate limits"): an IPv4 address as it is, an
 * IPv6 address by its /64, an IPv4-mapped IPv6 address as the IPv4 it carries. One subscriber or
 * host holds a whole /64 and picks any of its 2^64 addresses freely: counted one by one, each
 * request came with a fresh quota. Anything else (no address, a text) is its own key.
 */
export function rateLimitAddress(ip: string | null | undefined): string {
  if (!ip) return 'unknown';
  const address = ip.split('%')[0] ?? ip; // a zone (fe80::1%eth0) names an interface, not a host
  if (isIP(address) !== 6) return ip;
  const groups = ipv6Groups(address.toLowerCase());
  const isIpv4Mapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
  if (isIpv4Mapped) {
    const [high = 0, low = 0] = groups.slice(6);
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a dotted IPv4 tail as two). */
function ipv6Groups(address: string): number[] {
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  let text = address;
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${address.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string) => (part ? part.split(':').map((group) => Number.parseInt(group, 16)) : []);
  const before = parse(head);
  const after = tail === undefined ? [] : parse(tail);
  return [...before, ...Array<number>(8 - before.length - after.length).fill(0), ...after];
}

/** Requests looked at before deciding whether every peer is a proxy. */
const PEERS_OBSERVED = 20;
const isProxyAddress = proxyaddr.compile(['loopback', 'linklocal', 'uniquelocal']);

/**
 * A common misconfiguration, told once in the log: the server listens on a public interface,
 * TRUST_PROXY is unset, and the first requests all come from a proxy (a local or private address,
 * or carrying X-Forwarded-For). Every client then shares the proxy's address: the per-address limits
 * count them as one.
 */
export function warnWhenEveryPeerIsAProxy(app: FastifyInstance, config: AppConfig): void {
  if (config.trustProxy !== false || isLoopbackHost(config.host)) return;
  let seen = 0;
  const onRequest = async (request: FastifyRequest) => {
    if (seen >= PEERS_OBSERVED) return;
    const peer = request.socket.remoteAddress ?? '';
    if (!isProxyAddress(peer, 0) && request.headers['x-forwarded-for'] === undefined) {
      seen = PEERS_OBSERVED; // a direct client: the configuration is right
      return;
    }
    seen += 1;
    if (seen === PEERS_OBSERVED) {
      app.log.warn(
        { host: config.host, peers: PEERS_OBSERVED },
        'TRUST_PROXY n’est pas défini alors que le serveur écoute sur une interface publique et que toutes les requêtes semblent venir d’un proxy (adresse locale ou privée, X-Forwarded-For) : derrière un proxy, chaque client a son adresse et les limites par adresse les comptent ensemble. Indiquez TRUST_PROXY (1 derrière un nginx).',
      );
    }
  };
  app.addHook('onRequest', onRequest);
}
