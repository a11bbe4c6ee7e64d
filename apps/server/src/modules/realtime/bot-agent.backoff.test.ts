import { reconnectionDelay, useSpreadBackoff } from '@bot/bot-agent';
import { SOCKET_CLIENT_OPTIONS, SOCKET_RECONNECTION_DELAY_MAX_MS } from '@bot/contracts';
import { Manager } from 'socket.io-client';
import { expect, it } from 'vitest';

const CAP = SOCKET_RECONNECTION_DELAY_MAX_MS;

it('keeps the agents’ reconnection delays spread out at the cap, never above it', () => {
  for (const attempt of [0, 1, 2]) {
    const base = 1000 * 2 ** attempt;
    for (let i = 0; i < 200; i++) {
      const delay = reconnectionDelay(attempt);
      expect(delay).toBeGreaterThanOrEqual(base / 2);
      expect(delay).toBeLessThanOrEqual(Math.min(CAP, base * 1.5));
    }
  }
  const atCap = Array.from({ length: 200 }, () => reconnectionDelay(10));
  for (const delay of atCap) {
    expect(delay).toBeGreaterThanOrEqual(CAP / 2);
    expect(delay).toBeLessThanOrEqual(CAP);
  }
  // Spread over the range, not piled on the cap (Socket.IO's own back-off gives 5,000 every time).
  expect(atCap.filter((delay) => delay === CAP).length).toBeLessThan(20);
  expect(Math.max(...atCap) - Math.min(...atCap)).toBeGreaterThan(CAP / 4);
});

it('makes socket.io-client’s manager retry with those delays', () => {
  const manager = new Manager('http://127.0.0.1:9', { ...SOCKET_CLIENT_OPTIONS, autoConnect: false });
  const backoff = (manager as unknown as { backoff: { duration(): number; reset(): void } }).backoff;
  const stock = Array.from({ length: 10 }, () => backoff.duration()).slice(4);
  expect(new Set(stock)).toEqual(new Set([CAP])); // the lockstep this replaces
  backoff.reset();
  useSpreadBackoff(manager);
  const spread = Array.from({ length: 10 }, () => backoff.duration());
  expect(spread[0]).toBeLessThanOrEqual(1500); // the first retry still comes within 1.5 s
  const late = spread.slice(4);
  expect(new Set(late).size).toBeGreaterThan(1);
  for (const delay of late) expect(delay).toBeGreaterThanOrEqual(CAP / 2);
});
