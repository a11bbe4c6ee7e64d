import { type RefObject, useEffect } from 'react';
import type { MapEngineRef } from '../render/use-map-engine.ts';
import { canvasPoint, createHoverTooltip } from './map-tooltip.ts';

/** One wheel notch zooms by this much. */
const WHEEL_ZOOM = 1.2;

/** The wheel zooms around the cursor; the tooltip hides (the account under it moved). */
export function useWheelZoom(
  engine: MapEngineRef,
  canvas: RefObject<HTMLCanvasElement | null>,
  tooltip: RefObject<HTMLElement | null>,
): void {
  useEffect(() => {
    const element = canvas.current;
    const current = engine.current;
    if (!element || !current) return;
    const hover = createHoverTooltip(tooltip, current);
    const onWheel = (event: WheelEvent) => {
      event.preventDefault(); // the page must not scroll under the map
      const [sx, sy] = canvasPoint(element, event);
      current.renderer.zoomAt(sx, sy, event.deltaY < 0 ? WHEEL_ZOOM : 1 / WHEEL_ZOOM);
      hover.hide();
    };
    // Not passive: a passive listener may not cancel the page's scroll.
    element.addEventListener('wheel', onWheel, { passive: false });
    return () => element.removeEventListener('wheel', onWheel);
  }, [engine, canvas, tooltip]);
}
