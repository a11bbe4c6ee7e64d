import { RouteFollower } from '@bot/bot-agent';
import { type BotAccount, mapIdOf } from '@bot/contracts';
import { expect, it } from 'vitest';

const account = (x: number, y: number): BotAccount => ({
  name: 'Compte',
  character: 'Perso',
  level: 10,
  status: 'idle',
  position: { mapId: mapIdOf(x, y), x, y },
  routeId: null,
  stats: { gathered: 0, treasures: 0, kamas: 0, xp: 0 },
  message: null,
});

it('walks map by map to each step, does its action, then loops', () => {
  const follower = new RouteFollower(
    {
      id: 'r1',
      steps: [
        { mapId: mapIdOf(2, 1), x: 2, y: 1, action: 'gather' },
        { mapId: mapIdOf(2, 0), x: 2, y: 0, action: 'bank' },
      ],
    },
    { actionTicks: 2 },
  );
  let current = account(0, 0);
  const trail: string[] = [];
  for (let tick = 0; tick < 9; tick += 1) {
    current = follower.advance(current);
    trail.push(`${current.position.x},${current.position.y}:${current.status}`);
  }
  expect(trail).toEqual([
    '1,0:moving',
    '2,0:moving',
    '2,1:moving',
    '2,1:gathering',
    '2,1:gathering',
    '2,0:moving',
    '2,0:banking',
    '2,0:banking',
    '2,1:moving',
  ]);
  expect(current.routeId).toBe('r1');
  expect(current.position.mapId).toBe(mapIdOf(2, 1));
});
