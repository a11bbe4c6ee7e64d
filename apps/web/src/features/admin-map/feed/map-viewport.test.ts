import { mapViewportSchema } from '@bot/contracts';
import { describe, expect, it } from 'vitest';
import { mapViewportOf } from './map-viewport.ts';

const filter = { statuses: new Set(['error' as const]), owner: ' Bob ', version: '' };

describe('mapViewportOf', () => {
  it('asks for the area on screen plus half a screen each side, snapped outward, with the filters', () => {
    const viewport = mapViewportOf({
      area: { minX: -10, minY: 0, maxX: 10, maxY: 20 },
      cellSize: null,
      filter,
    });
    expect(viewport).toEqual({
      minX: -32,
      minY: -16,
      maxX: 32,
      maxY: 32,
      cellSize: null,
      statuses: ['error'],
      owner: 'Bob',
      version: '',
    });
    expect(mapViewportSchema.safeParse(viewport).success).toBe(true);
  });

  it('a small pan gives the same viewport; the world edge clamps it', () => {
    const at = (shift: number) =>
      mapViewportOf({ area: { minX: shift, minY: 0, maxX: 20 + shift, maxY: 20 }, cellSize: null, filter });
    expect(at(1)).toEqual(at(2));
    const zoomedOut = mapViewportOf({
      area: { minX: -3000, minY: -3000, maxX: 3000, maxY: 3000 },
      cellSize: 40,
      filter,
    });
    expect([zoomedOut.minX, zoomedOut.maxX, zoomedOut.cellSize]).toEqual([-1000, 1000, 40]);
    expect(mapViewportSchema.safeParse(zoomedOut).success).toBe(true);
  });
});
