import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
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

/** Requests looked at before deciding whether every peer is a proxy. */
const PEERS_OBSERVED = 20;
const isProxyAddress = proxyaddr.compile(['loopback', 'linklocal', 'uniquelocal']);
const isLoopbackAddress = proxyaddr.compile('loopback');
const isLoopbackHost = (host: string) =>
  host === 'localhost' || (isIP(host) !== 0 && isLoopbackAddress(host, 0));

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
