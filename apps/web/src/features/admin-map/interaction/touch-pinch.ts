interface Point {
  x: number;
  y: number;
}

/**
 * The pointers down on the map, for touch: two fingers pinch to zoom around their middle. `zoomStep`
 * answers, for each move of two fingers, the factor to zoom by since the previous move.
 */
export function createPinch() {
  const pointers = new Map<number, Point>();
  let distance = 0;
  const fingers = () => [...pointers.values()];
  const spread = () => {
    const [a, b] = fingers();
    return a && b ? Math.hypot(a.x - b.x, a.y - b.y) : 0;
  };
  return {
    down(id: number, at: Point): void {
      pointers.set(id, at);
      if (pointers.size === 2) distance = spread();
    },
    /** Follows a pointer already down; others (a mouse hovering) are not tracked. */
    move(id: number, at: Point): void {
      if (pointers.has(id)) pointers.set(id, at);
    },
    up(id: number): void {
      pointers.delete(id);
    },
    isPinching(): boolean {
      return pointers.size === 2;
    },
    /** The zoom since the last step and the page point to zoom around, or null (no spread yet). */
    zoomStep(): { factor: number; centre: Point } | null {
      const next = spread();
      const previous = distance;
      distance = next;
      const [a, b] = fingers() as [Point, Point];
      if (previous <= 0 || next <= 0) return null;
      return { factor: next / previous, centre: { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 } };
    },
  };
}
