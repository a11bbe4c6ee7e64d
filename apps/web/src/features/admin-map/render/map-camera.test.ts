import { describe, expect, it } from 'vitest';
import { MapCamera } from './map-camera.ts';

function camera(width = 400, height = 200): MapCamera {
  const frame = new MapCamera();
  frame.width = width;
  frame.height = height;
  frame.world = {
    bounds: { minX: -10, maxX: 10, minY: -5, maxY: 5 },
    areas: [],
    maps: [],
  };
  return frame;
}

describe('MapCamera', () => {
  it('fits the world, centred, at the scale the narrower side allows', () => {
    const frame = camera();
    frame.fit();
    expect(frame.view).toEqual({ cx: 0, cy: 0, scale: Math.min(400 / 22, 200 / 12) });
    expect(frame.visibleArea()).toEqual({ minX: -12, minY: -6, maxX: 12, maxY: 6 });
  });

  it('zooms around a screen point, keeping the world point under it in place', () => {
    const frame = camera();
    frame.fit();
    const before = frame.toWorld(300, 50);
    frame.zoomAt(300, 50, 2);
    expect(frame.toWorld(300, 50)[0]).toBeCloseTo(before[0], 9);
    expect(frame.toWorld(300, 50)[1]).toBeCloseTo(before[1], 9);
    expect([frame.toScreenX(before[0]), frame.toScreenY(before[1])]).toEqual([300, 50]);
  });

  it('pans by screen pixels and groups accounts below 5 pixels per cell', () => {
    const frame = camera();
    frame.view.scale = 10;
    frame.panBy(20, -10);
    expect([frame.view.cx, frame.view.cy]).toEqual([-2, 1]);
    expect(frame.isClustered()).toBe(false);
    frame.zoomAt(0, 0, 0.4);
    expect(frame.isClustered()).toBe(true);
  });
});
