/**
 * Benchmark baseline: a bare Socket.IO relay with the same transport settings and the same room
 * fan-out (owner room + admin room), no checks, no state, no batching.
 */

import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Server } from 'socket.io';
import { hashSecret } from '../../apps/server/src/core/ids.ts';
import type { BenchBot, BenchFixture, TargetMessage } from './protocol.ts';

async function main(): Promise<void> {
  const count = Number(process.argv[2]);
  const port = Number(process.argv[3]);
  const bots: BenchBot[] = [];
  for (let i = 0; i < count; i += 1) {
    const hwid = `RELAY-${String(i).padStart(6, '0')}`;
    bots.push({
      hwid,
      botToken: hashSecret(hwid),
      ownerToken: i % 10 === 0 ? hashSecret(`owner${i}`) : null,
      accounts: [`relay${i}-a`, `relay${i}-b`],
    });
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-relay-'));
  const fixtureFile = path.join(dir, 'fixture.json');
  await writeFile(fixtureFile, JSON.stringify({ bots, adminToken: 'admin' } satisfies BenchFixture));

  const http = createServer();
  const io = new Server(http, {
    path: '/socket.io',
    transports: ['websocket'],
    allowUpgrades: false,
    serveClient: false,
  });
  io.on('connection', (socket) => {
    let hwid: string | undefined;
    socket.on('authenticate', (payload: { type: string; hwid?: string }, ack?: (answer: unknown) => void) => {
      if (payload.type === 'client' && payload.hwid) void socket.join(`bot:${payload.hwid}`);
      if (payload.type === 'admin') void socket.join('admins');
      if (payload.type === 'bot') hwid = payload.hwid;
      if (typeof ack === 'function') ack({ ok: true });
    });
    socket.on('bot_update', (report: unknown) => {
      if (hwid) io.to(`bot:${hwid}`).to('admins').emit('bot_update', report);
    });
  });
  await new Promise<void>((resolve) => http.listen(port, '127.0.0.1', resolve));

  const send = (message: TargetMessage) => process.send?.(message);
  process.on('message', (message: { type: string; gc?: boolean }) => {
    if (message.type === 'stats') {
      // CPU first: the collection below is the benchmark's, not the target's.
      const cpu = process.cpuUsage();
      if (message.gc) (globalThis as { gc?: () => void }).gc?.();
      const memory = process.memoryUsage();
      const { active, idle } = performance.eventLoopUtilization();
      send({
        type: 'stats',
        cpuMicros: cpu.user + cpu.system,
        rss: memory.rss,
        heapUsed: memory.heapUsed,
        eventLoop: { active, idle },
      });
    }
    if (message.type === 'stop') {
      io.close();
      process.exit(0);
    }
  });
  send({ type: 'ready', port, fixtureFile });
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
