import { spawn } from 'node:child_process';
import { afterAll, expect, it, vi } from 'vitest';
import { startTestServer } from './harness.ts';
import { createBotOwner } from './helpers/realtime.ts';

/**
 * The server's close as Debian's python-socketio 5.7 takes it (docs/protocol.md, "Reconnecting"):
 * it answers the WebSocket close frame but keeps its TCP connection until its process ends. The
 * drain cuts it, and says so without calling it a client that stopped reading.
 */
const AGENT = `
import sys, threading, socketio
url, token, hwid = sys.argv[1:4]
sio = socketio.Client(reconnection=False)

@sio.on('disconnect')
def disconnected():
    print('disconnect', flush=True)
    # An agent's handler that takes a moment (logging, scheduling its reconnection): python-socketio
    # then reads the server's close frame before it closes its side, and keeps the TCP connection.
    threading.Event().wait(0.5)

sio.connect(url, transports=['websocket'])
print('authenticated', sio.call('authenticate', {'type': 'bot', 'token': token, 'hwid': hwid}), flush=True)
threading.Event().wait()
`;

const children: ReturnType<typeof spawn>[] = [];
afterAll(() => {
  for (const child of children) child.kill();
});

it('a python-socketio agent that answered the close is cut as one that kept its connection, not as one that stopped reading', {
  timeout: 60_000,
}, async () => {
  const logs: string[] = [];
  const server = await startTestServer({ onLogLine: (line) => logs.push(line) });
  const owner = await createBotOwner(server);
  let output = '';
  const agent = spawn('/usr/bin/python3', ['-c', AGENT, server.url, owner.botToken, owner.hwid]);
  children.push(agent);
  agent.stdout.on('data', (chunk) => (output += chunk));
  agent.stderr.on('data', (chunk) => (output += chunk));
  await vi.waitFor(() => expect(output).toContain("authenticated {'ok': True}"), { timeout: 15_000 });

  await server.close();
  expect(output).toContain('disconnect');
  const drain = logs.filter((line) => line.includes('sockets temps réel'));
  expect(drain).toHaveLength(1);
  expect(drain[0]).toContain('n’ont pas fermé leur connexion');
  expect(JSON.parse(drain[0] as string)).toMatchObject({ level: 30, sockets: 1 });
});
