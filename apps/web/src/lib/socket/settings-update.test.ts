import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSocketClient } from './socket-client.ts';

let io: Server;
let url: string;

beforeAll(async () => {
  const http = createServer();
  io = new Server(http, { path: '/socket.io', transports: ['websocket'] });
  io.on('connection', (socket) => {
    socket.on('authenticate', (payload) => {
      socket.emit('authenticated', { type: payload.type });
      socket.emit('settings_update', { isSnow: true, maintenanceMode: false });
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await io.close();
});

it('hands settings pushed by the hub to onSettingsUpdate', async () => {
  const received: Record<string, unknown>[] = [];
  const client = createSocketClient({
    getUrl: () => url,
    getToken: () => 'token',
    log: () => {},
    onSettingsUpdate: (settings) => received.push(settings),
  });
  client.connectAsAdmin({ onSnapshot: () => {}, onUpdate: () => {} });
  await expect.poll(() => received).toEqual([{ isSnow: true, maintenanceMode: false }]);
  client.disconnectAll();
});
