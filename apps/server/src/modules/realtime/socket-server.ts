import type { Server as HttpServer } from 'node:http';
import { SOCKET_PATH } from '@bot/contracts';
import { createAdapter } from '@socket.io/redis-streams-adapter';
import { Server } from 'socket.io';
import type { AppContext } from '../../context.ts';
import { trustProxyRule } from '../../core/client-address.ts';
import type { RedisConnection } from '../../core/redis.ts';
import { admitHandshakes, keepOnlyHandshakeFacts } from './realtime.admission.ts';
import type { HubServer } from './realtime.types.ts';
import { textOnlyParser } from './text-parser.ts';

/**
 * The Socket.IO server on the app's HTTP server: websocket only, text frames, handshakes admitted
 * before Socket.IO sees them. With Redis, the streams adapter carries broadcasts to every node.
 */
export function createSocketServer(
  ctx: AppContext,
  server: HttpServer,
  redis: RedisConnection | undefined,
): HubServer {
  const { realtime } = ctx.config;
  const trustProxy = trustProxyRule(ctx.config.trustProxy);
  const io: HubServer = new Server(server, {
    path: SOCKET_PATH,
    transports: ['websocket'],
    allowUpgrades: false,
    serveClient: false,
    maxHttpBufferSize: realtime.maxMessageBytes,
    perMessageDeflate: false,
    parser: textOnlyParser,
    // No connection state recovery: it would skip the authentication of a revoked session.
    // onlyPlaintext: nothing we emit is binary, so the adapter need not search messages for it.
    ...(redis
      ? { adapter: createAdapter(redis.adapter, { streamName: 'bp:socket.io', onlyPlaintext: true }) }
      : {}),
  });
  admitHandshakes(ctx, server, trustProxy); // in front of the listeners Socket.IO just attached
  keepOnlyHandshakeFacts(io, trustProxy);
  return io;
}
