import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { setFleetViewport } from '../../../lib/socket/fleet-cache.ts';
import { socketClient } from '../../../lib/socket/index.ts';
import type { MapFilter } from '../render/fleet-buffers.ts';
import type { MapEngineRef } from '../render/use-map-engine.ts';
import { mapViewportOf } from './map-viewport.ts';

/** How often the map checks whether what it shows changed (pan, zoom, filters), for the viewport feed. */
export const VIEWPORT_CHECK_MS = 250;

/**
 * On the viewport feed the hub sends only what the map shows (decision 206): tells it whenever that
 * changes, and that the map shows nothing once it is gone. The first offer comes before the page's
 * admin socket connects (this effect runs first), so the socket authenticates with it.
 */
export function useViewportFollow(engine: MapEngineRef, filter: MapFilter): void {
  const queryClient = useQueryClient();
  const currentFilter = useRef(filter);
  currentFilter.current = filter;

  useEffect(() => {
    const renderer = engine.current?.renderer;
    if (!renderer) return;
    let lastViewport = '';
    const follow = () => {
      const viewport = mapViewportOf({
        area: renderer.visibleArea(),
        cellSize: renderer.isClustered() ? renderer.clusterCellSize() : null,
        filter: currentFilter.current,
      });
      const key = JSON.stringify(viewport);
      if (key === lastViewport) return;
      lastViewport = key;
      setFleetViewport(queryClient, socketClient, viewport);
    };
    follow();
    const timer = window.setInterval(follow, VIEWPORT_CHECK_MS);
    return () => {
      window.clearInterval(timer);
      socketClient.setAdminViewport(undefined);
    };
  }, [engine, queryClient]);
}
