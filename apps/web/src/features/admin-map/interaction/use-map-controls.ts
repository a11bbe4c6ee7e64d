import type { KeyboardEvent } from 'react';
import type { MapEngineRef } from '../render/use-map-engine.ts';

/** The zoom buttons' step; the keys zoom by less, as they repeat when held. */
const BUTTON_ZOOM = 1.5;
const KEY_ZOOM = 1.25;
/** Arrow keys pan by this many pixels, by the larger step with Shift. */
const KEY_PAN_PX = 60;
const KEY_PAN_FAST_PX = 200;

/**
 * The map without a mouse: the arrows pan, + and − zoom around the middle, 0 shows the whole world;
 * and the on-map buttons doing the same. The handlers read the engine when called: no effect needed.
 */
export function useMapControls(engine: MapEngineRef) {
  /** Buttons and keys act around the middle of the map. */
  const zoomCentre = (factor: number) => {
    const renderer = engine.current?.renderer;
    renderer?.zoomAt(renderer.width / 2, renderer.height / 2, factor);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const renderer = engine.current?.renderer;
    if (!renderer) return;
    const step = event.shiftKey ? KEY_PAN_FAST_PX : KEY_PAN_PX;
    const actions: Record<string, () => void> = {
      ArrowLeft: () => renderer.panBy(step, 0),
      ArrowRight: () => renderer.panBy(-step, 0),
      ArrowUp: () => renderer.panBy(0, step),
      ArrowDown: () => renderer.panBy(0, -step),
      '+': () => zoomCentre(KEY_ZOOM),
      '=': () => zoomCentre(KEY_ZOOM),
      '-': () => zoomCentre(1 / KEY_ZOOM),
      '0': () => renderer.fit(),
    };
    const action = actions[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  };
  return {
    onKeyDown,
    zoomIn: () => zoomCentre(BUTTON_ZOOM),
    zoomOut: () => zoomCentre(1 / BUTTON_ZOOM),
    fit: () => engine.current?.renderer.fit(),
  };
}
