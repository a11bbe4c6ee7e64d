import Box from '@mui/material/Box';
import { useQuery } from '@tanstack/react-query';
import { useId, useRef } from 'react';
import { worldQuery } from '../api/world.ts';
import { MapTextAlternative } from '../description/map-description.tsx';
import { useMapDescription } from '../description/use-map-description.ts';
import { useFleetMirror } from '../feed/use-fleet-mirror.ts';
import { type MapCounts, useMapCounts } from '../feed/use-map-counts.ts';
import { useViewportFollow } from '../feed/use-viewport-follow.ts';
import { useMapInstruments } from '../instrumented/use-map-instruments.ts';
import { useMapControls } from '../interaction/use-map-controls.ts';
import { usePointerControls } from '../interaction/use-pointer-controls.ts';
import { useWheelZoom } from '../interaction/use-wheel-zoom.ts';
import type { MapFilter } from '../render/fleet-buffers.ts';
import { useMapEngine } from '../render/use-map-engine.ts';
import { useRendererInputs } from '../render/use-renderer-inputs.ts';
import { MapControls, MapLegend } from './map-overlays.tsx';

export interface LiveMapProps {
  filter: MapFilter;
  selectedHwid: string | null;
  onSelect: (hwid: string | null) => void;
  /** Called with the counts (bots online, accounts drawn, accounts shown) — rarely, never per frame. */
  onCounts: (counts: MapCounts) => void;
}

/**
 * The canvas of /admin/map. The fleet lives in the query cache (written by the admin socket); the
 * engine mirrors it into typed arrays on each cache change and the component never re-renders for bot
 * updates. The engine comes first: the hooks after it find it in the same commit.
 */
export function LiveMap({ filter, selectedHwid, onSelect, onCounts }: LiveMapProps) {
  const container = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const tooltip = useRef<HTMLDivElement>(null);
  const world = useQuery(worldQuery);
  const legendId = useId();
  const descriptionId = useId();

  const engine = useMapEngine(canvas, container);
  // Before the fleet: the hub learns what the map shows before the admin socket connects.
  useViewportFollow(engine, filter);
  const reportCounts = useMapCounts(engine, onCounts);
  useFleetMirror(engine, reportCounts);
  usePointerControls(engine, canvas, tooltip, onSelect);
  useWheelZoom(engine, canvas, tooltip);
  const controls = useMapControls(engine);
  useRendererInputs(engine, { filter, selectedHwid, world: world.data });
  const description = useMapDescription(engine);
  useMapInstruments(engine);

  // The legend sits under the map, not over it: it hid the bots and zones in its corner.
  return (
    <Box sx={{ flexGrow: 1, minWidth: 0, display: 'flex', flexDirection: 'column', gap: 1 }}>
      <Box
        ref={container}
        role="group"
        tabIndex={0}
        aria-label="Carte : flèches pour se déplacer, + et − pour zoomer, 0 pour tout voir"
        aria-describedby={`${legendId} ${descriptionId}`}
        onKeyDown={controls.onKeyDown}
        data-testid="map-region"
        sx={{
          position: 'relative',
          flexGrow: 1,
          minWidth: 0,
          height: { xs: 420, lg: 'calc(100vh - 260px)' },
          minHeight: 420,
          borderRadius: 1,
          overflow: 'hidden',
          border: 1,
          borderColor: 'divider',
        }}
      >
        <canvas
          ref={canvas}
          data-testid="map-canvas"
          role="img"
          aria-label="Carte en direct des comptes de jeu en ligne"
          style={{ display: 'block', cursor: 'crosshair', touchAction: 'none' }}
        />
        <Box
          ref={tooltip}
          role="tooltip"
          data-testid="map-tooltip"
          sx={{
            position: 'absolute',
            left: 0,
            top: 0,
            display: 'none',
            pointerEvents: 'none',
            whiteSpace: 'pre',
            bgcolor: 'rgba(20,20,20,0.92)',
            color: '#fff',
            fontSize: 12,
            p: 1,
            borderRadius: 1,
            maxWidth: 320,
            overflow: 'hidden',
          }}
        />
        <MapControls onZoomIn={controls.zoomIn} onZoomOut={controls.zoomOut} onFit={controls.fit} />
      </Box>
      <MapLegend id={legendId} />
      <MapTextAlternative id={descriptionId} description={description} />
    </Box>
  );
}
