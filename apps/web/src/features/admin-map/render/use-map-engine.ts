import { type RefObject, useEffect, useRef } from 'react';
import { FleetBuffers } from './fleet-buffers.ts';
import { MapRenderer } from './map-renderer.ts';

/** The map's insides: the accounts in typed arrays and the renderer that draws them. */
export interface MapEngine {
  buffers: FleetBuffers;
  renderer: MapRenderer;
}

export type MapEngineRef = RefObject<MapEngine | null>;

/** Slots allocated up front: a large fleet grows the buffers a few times, not hundreds. */
const INITIAL_SLOTS = 4096;

/**
 * Creates the buffers and the renderer on the canvas, keeps the canvas the size of its box and runs the
 * frame loop. A ref, not state: the map's other hooks are declared after this one, so their effects run
 * in the same commit and find the engine there (one render, and the viewport is offered to the admin
 * socket before the page's effect connects it).
 */
export function useMapEngine(
  canvas: RefObject<HTMLCanvasElement | null>,
  container: RefObject<HTMLElement | null>,
): MapEngineRef {
  const engine = useRef<MapEngine | null>(null);
  useEffect(() => {
    const element = canvas.current;
    const box = container.current;
    if (!element || !box) return;
    const buffers = new FleetBuffers(INITIAL_SLOTS);
    const renderer = new MapRenderer(element, buffers);
    engine.current = { buffers, renderer };
    const fitToBox = () => renderer.resize(box.clientWidth, box.clientHeight);
    fitToBox();
    renderer.fit();
    const resizeObserver = new ResizeObserver(fitToBox);
    resizeObserver.observe(box);
    renderer.start();
    return () => {
      resizeObserver.disconnect();
      renderer.stop();
      engine.current = null;
    };
  }, [canvas, container]);
  return engine;
}
