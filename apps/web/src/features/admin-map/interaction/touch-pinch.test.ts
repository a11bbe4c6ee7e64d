import { describe, expect, it } from 'vitest';
import { createPinch } from './touch-pinch.ts';

describe('createPinch', () => {
  it('zooms by how much two fingers spread since the last move, around their middle', () => {
    const pinch = createPinch();
    pinch.down(1, { x: 0, y: 0 });
    expect(pinch.isPinching()).toBe(false);
    pinch.down(2, { x: 100, y: 0 });
    expect(pinch.isPinching()).toBe(true);
    pinch.move(2, { x: 200, y: 0 });
    expect(pinch.zoomStep()).toEqual({ factor: 2, centre: { x: 100, y: 0 } });
    pinch.move(1, { x: 100, y: 0 });
    expect(pinch.zoomStep()).toEqual({ factor: 0.5, centre: { x: 150, y: 0 } });
  });

  it('ignores pointers it never saw go down (a hovering mouse) and ends with a finger lifted', () => {
    const pinch = createPinch();
    pinch.down(1, { x: 0, y: 0 });
    pinch.move(7, { x: 50, y: 50 });
    expect(pinch.isPinching()).toBe(false);
    pinch.down(2, { x: 10, y: 0 });
    pinch.up(1);
    expect(pinch.isPinching()).toBe(false);
  });
});
