import { type RefObject, useEffect, useRef } from 'react';
import type { MapEngineRef } from '../render/use-map-engine.ts';
import { canvasPoint, createHoverTooltip } from './map-tooltip.ts';
import { createPinch } from './touch-pinch.ts';

/** Below this many pixels of movement, a press and release is a click, not a drag. */
const CLICK_SLOP_PX = 4;
/** Clicking a cluster zooms in by this much around it, towards its accounts. */
const CLUSTER_CLICK_ZOOM = 3;

/**
 * Mouse, pen and touch on the canvas: drag pans, two fingers pinch to zoom, hovering shows the
 * tooltip, a click selects the account under it (or zooms into the cluster under it).
 */
export function usePointerControls(
  engine: MapEngineRef,
  canvas: RefObject<HTMLCanvasElement | null>,
  tooltip: RefObject<HTMLElement | null>,
  onSelect: (hwid: string | null) => void,
): void {
  const select = useRef(onSelect);
  select.current = onSelect;

  useEffect(() => {
    const element = canvas.current;
    const current = engine.current;
    if (!element || !current) return;
    const { renderer, buffers } = current;
    const hover = createHoverTooltip(tooltip, current);
    const pinch = createPinch();
    let drag: { x: number; y: number; moved: number } | null = null;
    const local = (event: MouseEvent) => canvasPoint(element, event);

    const onPointerDown = (event: PointerEvent) => {
      element.setPointerCapture(event.pointerId);
      pinch.down(event.pointerId, { x: event.clientX, y: event.clientY });
      drag = pinch.isPinching() ? null : { x: event.clientX, y: event.clientY, moved: 0 };
    };
    const pinchZoom = () => {
      const step = pinch.zoomStep();
      if (!step) return;
      const rect = element.getBoundingClientRect();
      renderer.zoomAt(step.centre.x - rect.left, step.centre.y - rect.top, step.factor);
    };
    const dragPan = (event: PointerEvent, from: { x: number; y: number; moved: number }) => {
      const dx = event.clientX - from.x;
      const dy = event.clientY - from.y;
      drag = { x: event.clientX, y: event.clientY, moved: from.moved + Math.abs(dx) + Math.abs(dy) };
      renderer.panBy(dx, dy);
    };
    const onPointerMove = (event: PointerEvent) => {
      pinch.move(event.pointerId, { x: event.clientX, y: event.clientY });
      if (pinch.isPinching()) pinchZoom();
      else if (drag) dragPan(event, drag);
      else return hover.hoverAt(...local(event));
      hover.hide();
    };
    const clickAt = (sx: number, sy: number) => {
      const slot = renderer.isClustered() ? -1 : renderer.pick(sx, sy);
      if (slot < 0 && renderer.pickCluster(sx, sy)) return renderer.zoomAt(sx, sy, CLUSTER_CLICK_ZOOM);
      if (!renderer.isClustered()) select.current(slot >= 0 ? (buffers.hwidOf[slot] ?? null) : null);
    };
    const onPointerUp = (event: PointerEvent) => {
      const wasPinching = pinch.isPinching();
      pinch.up(event.pointerId);
      if (wasPinching) return; // the other finger lifts next: no click, no pan jump
      const wasClick = drag !== null && drag.moved < CLICK_SLOP_PX;
      drag = null;
      if (wasClick) clickAt(...local(event));
    };
    const onPointerCancel = (event: PointerEvent) => {
      pinch.up(event.pointerId);
      drag = null;
    };

    const listeners = [
      ['pointerdown', onPointerDown],
      ['pointermove', onPointerMove],
      ['pointerup', onPointerUp],
      ['pointercancel', onPointerCancel],
      ['pointerleave', hover.hide],
    ] as const;
    for (const [type, listener] of listeners) element.addEventListener(type, listener as EventListener);
    return () => {
      for (const [type, listener] of listeners) element.removeEventListener(type, listener as EventListener);
    };
  }, [engine, canvas, tooltip]);
}
