import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { CUT_CONNECTIONS_AFTER_MS, CUT_WEBSOCKETS_AFTER_MS } from './shutdown.ts';

/** How often, during the drain, connections whose answer has been sent are closed. */
const IDLE_CHECK_MS = 200;

/**
 * Makes `app.close()` end even when clients hold their connections (docs/operations.md, "Signals
 * and shutdown"). Node's `server.close()` closes the connections idle at that moment only, and waits
 * for every other one: a keep-alive connection (nginx upstream, a browser) whose answer was in flight
 * stays open after it until the keep-alive timeout (72 s), and a websocket whose peer stops reading
 * never answers the close handshake (ws waits 30 s). Once the app closes:
 * - every answer says `Connection: close`, and connections that became idle are closed;
 * - websockets still open after `CUT_WEBSOCKETS_AFTER_MS` are destroyed (a live peer answers the
 *   hub's close within a round trip), told apart in the log: a peer that answered the close frame but
 *   kept its TCP connection (python-socketio 5.7 does, docs/protocol.md "Reconnecting") is harmless,
 *   one that never answered has stopped reading;
 * - every connection still open after `CUT_CONNECTIONS_AFTER_MS` is destroyed, leaving the rest of
 *   the drain's limit to write the buffered history and close the database.
 * Registered before the routes, after the real-time hub is attached to the server.
 */
export function closeConnectionsOnDrain(
  app: FastifyInstance,
  limits = { websocketsMs: CUT_WEBSOCKETS_AFTER_MS, allMs: CUT_CONNECTIONS_AFTER_MS },
): void {
  const upgraded = new Set<Duplex>();
  app.server.on('upgrade', (_request, socket: Duplex) => {
    upgraded.add(socket);
    socket.once('close', () => upgraded.delete(socket));
  });
  let isDraining = false;
  const timers: NodeJS.Timeout[] = [];
  const destroyUpgraded = (why: string) => {
    if (upgraded.size === 0) return;
    app.log.warn({ sockets: upgraded.size }, why);
    for (const socket of upgraded) socket.destroy();
  };
  const cutLateWebsockets = () => {
    // ws ends its side once close frames went both ways: those peers did close, bar their TCP.
    const closed = [...upgraded].filter((socket) => socket.writableEnded);
    const seconds = limits.websocketsMs / 1000;
    if (closed.length > 0) {
      app.log.info(
        { sockets: closed.length },
        `sockets temps réel fermés dont les clients n’ont pas fermé leur connexion TCP ${seconds} s après le début de l’arrêt (python-socketio la garde) : coupés`,
      );
      for (const socket of closed) {
        upgraded.delete(socket);
        socket.destroy();
      }
    }
    destroyUpgraded(
      `sockets temps réel encore ouverts ${seconds} s après le début de l’arrêt, fermeture sans réponse (client qui ne lit plus) : coupés`,
    );
  };

  app.addHook('onSend', async (_request, reply, payload) => {
    if (isDraining) reply.header('connection', 'close');
    return payload;
  });
  app.addHook('preClose', async () => {
    isDraining = true;
    timers.push(
      setInterval(() => app.server.closeIdleConnections(), IDLE_CHECK_MS).unref(),
      setTimeout(cutLateWebsockets, limits.websocketsMs).unref(),
      setTimeout(() => {
        app.log.warn(
          `connexions encore ouvertes ${limits.allMs / 1000} s après le début de l’arrêt : coupées (réponses inachevées perdues)`,
        );
        app.server.closeAllConnections();
        destroyUpgraded('sockets temps réel coupés avec les autres connexions');
      }, limits.allMs).unref(),
    );
  });
  app.addHook('onClose', async () => {
    for (const timer of timers) clearTimeout(timer);
  });
}
