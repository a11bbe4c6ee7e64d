import { useEffect, useState } from 'react';
import { VIEWPORT_CHECK_MS } from '../feed/use-viewport-follow.ts';
import type { MapEngineRef } from '../render/use-map-engine.ts';
import { describeMap, type MapDescription } from './describe-map.ts';

/**
 * The map described in words, read from the engine a few times a second (the canvas never re-renders
 * React); the component re-renders only when the description changed.
 */
export function useMapDescription(engine: MapEngineRef): MapDescription | null {
  const [description, setDescription] = useState<MapDescription | null>(null);
  useEffect(() => {
    let lastKey = '';
    const refresh = () => {
      const current = engine.current;
      if (!current) return;
      const next = describeMap(current);
      const key = JSON.stringify(next);
      if (key === lastKey) return;
      lastKey = key;
      setDescription(next);
    };
    refresh();
    const timer = window.setInterval(refresh, VIEWPORT_CHECK_MS);
    return () => window.clearInterval(timer);
  }, [engine]);
  return description;
}
