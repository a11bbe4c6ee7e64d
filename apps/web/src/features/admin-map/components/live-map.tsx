import { BOT_STATUS_LABELS, BOT_STATUSES, type BotStatus, countOf } from '@bot/contracts';
import Box from '@mui/material/Box';
import { hashKey, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef } from 'react';
import { socketClient } from '../../../lib/socket/index.ts';
import {
  countCellAccounts,
  emptyFleet,
  type LiveFleet,
  liveKeys,
  setFleetViewport,
} from '../../../lib/socket/index.ts';
import { worldQuery } from '../api/world.ts';
import { FleetBuffers, type MapFilter } from '../map/fleet-buffers.ts';
import { MapRenderer } from '../map/map-renderer.ts';
import { mapViewportOf } from '../map/map-viewport.ts';
import { MapControls, MapLegend } from './map-overlays.tsx';

const BUTTON_ZOOM = 1.5;
const KEY_ZOOM = 1.25;

const FLEET_HASH = hashKey(liveKeys.fleet);
/** How often the map checks whether what it shows changed (pan, zoom, filters), for the viewport feed. */
const VIEWPORT_CHECK_MS = 250;
/** localStorage flag that loads the map's test hooks (journeys, benchmark): map/test-hooks.ts. */
const MAP_TEST_HOOK_FLAG = 'admin-map-test-hook';

export interface LiveMapProps {
  filter: MapFilter;
  selectedHwid: string | null;
  onSelect: (hwid: string | null) => void;
  /** Called with the counts (bots online, accounts drawn, accounts shown) — rarely, never per frame. */
  onCounts: (counts: { online: number; accounts: number; shown: number }) => void;
}

function applyFleet(buffers: FleetBuffers, fleet: LiveFleet): void {
  if (fleet.isSnapshot) {
    buffers.clear();
    for (const state of fleet.bots.values()) buffers.setBot(state);
    return;
  }
  for (const hwid of fleet.changed) {
    const state = fleet.bots.get(hwid);
    if (state) buffers.setBot(state);
  }
  for (const hwid of fleet.removed) buffers.removeBot(hwid);
}

/**
 * The canvas of /admin/map. The fleet lives in the query cache (written by the admin socket); this
 * component mirrors it into typed arrays on each cache change and never re-renders for bot updates.
 */
export function LiveMap({ filter, selectedHwid, onSelect, onCounts }: LiveMapProps) {
  const queryClient = useQueryClient();
  const container = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const tooltip = useRef<HTMLDivElement>(null);
  const engine = useRef<{ buffers: FleetBuffers; renderer: MapRenderer } | null>(null);
  const callbacks = useRef({ onSelect, onCounts });
  callbacks.current = { onSelect, onCounts };
  const currentFilter = useRef(filter);
  currentFilter.current = filter;
  const world = useQuery(worldQuery);
  const legendId = useId();
  // Keeps the fleet query observed (not garbage-collected) without re-rendering on its changes.
  useQuery({
    queryKey: liveKeys.fleet,
    queryFn: () => emptyFleet,
    staleTime: Number.POSITIVE_INFINITY,
    notifyOnChangeProps: [],
  });

  useEffect(() => {
    const element = canvas.current;
    const box = container.current;
    if (!element || !box) return;
    const buffers = new FleetBuffers(4096);
    const renderer = new MapRenderer(element, buffers);
    engine.current = { buffers, renderer };
    renderer.resize(box.clientWidth, box.clientHeight);
    renderer.fit();

    let lastCounts = '';
    const reportCounts = (fleet: LiveFleet | undefined) => {
      // On the viewport feed, nodes count the accounts of clustered areas (the others are held here).
      const counted = fleet?.feed === 'viewport' ? countCellAccounts(fleet) : 0;
      const counts = {
        online: fleet?.onlineCount ?? 0,
        accounts: counted + buffers.size,
        shown: counted + buffers.visibleCount,
      };
      const key = `${counts.online}/${counts.accounts}/${counts.shown}`;
      if (key !== lastCounts) {
        lastCounts = key;
        callbacks.current.onCounts(counts);
      }
    };
    let lastFleet: LiveFleet | undefined;
    const onFleet = (fleet: LiveFleet | undefined) => {
      if (!fleet || fleet === lastFleet) return;
      if (!lastFleet && !fleet.isSnapshot) applyFleet(buffers, { ...fleet, isSnapshot: true });
      else applyFleet(buffers, fleet);
      renderer.setServerCells(
        fleet.feed === 'viewport'
          ? [...fleet.cells.values()].sort((a, b) => a.receivedAt - b.receivedAt)
          : null,
      );
      lastFleet = fleet;
      reportCounts(fleet);
    };
    // On the viewport feed the hub sends what the map shows: tell it whenever that changes. Offered
    // before the page's admin socket connects (this effect runs first), so it authenticates with it.
    let lastViewport = '';
    const followViewport = () => {
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
    followViewport();
    onFleet(queryClient.getQueryData<LiveFleet>(liveKeys.fleet));
    const unsubscribe = queryClient.getQueryCache().subscribe((event) => {
      if (event.type !== 'updated' || event.query.queryHash !== FLEET_HASH) return;
      const fleet = event.query.state.data as LiveFleet | undefined;
      if (!fleet) {
        buffers.clear();
        lastFleet = undefined;
        reportCounts(undefined);
      } else onFleet(fleet);
    });
    // Filters and zoom change the counts without a fleet change.
    const countsTimer = window.setInterval(() => {
      followViewport();
      reportCounts(lastFleet);
    }, VIEWPORT_CHECK_MS);

    const resizeObserver = new ResizeObserver(() => {
      renderer.resize(box.clientWidth, box.clientHeight);
    });
    resizeObserver.observe(box);
    renderer.start();

    // Pan (drag), zoom (wheel), hover tooltip, click to select.
    let drag: { x: number; y: number; moved: number } | null = null;
    const local = (event: MouseEvent) => {
      const rect = element.getBoundingClientRect();
      return [event.clientX - rect.left, event.clientY - rect.top] as const;
    };
    const hideTooltip = () => {
      if (tooltip.current) tooltip.current.style.display = 'none';
      if (renderer.hoveredSlot !== -1) {
        renderer.hoveredSlot = -1;
        renderer.markDirty();
      }
    };
    const showTooltip = (sx: number, sy: number, lines: string[]) => {
      const tip = tooltip.current;
      if (!tip) return;
      tip.textContent = lines.join('\n');
      tip.style.display = 'block';
      tip.style.transform = `translate(${Math.min(sx + 14, renderer.width - 330)}px, ${Math.max(0, sy - 10)}px)`;
    };
    const onHover = (sx: number, sy: number) => {
      // A bot drawn under the pointer first; then a cluster (zoomed out, or counted by a node).
      const slot = renderer.isClustered() ? -1 : renderer.pick(sx, sy);
      if (slot < 0) {
        const cluster = renderer.pickCluster(sx, sy);
        if (!cluster) return hideTooltip();
        showTooltip(sx, sy, [
          countOf(cluster.count, 'compte de jeu', 'comptes de jeu'),
          'Zoomez pour les voir un par un.',
        ]);
        return;
      }
      const hwid = buffers.hwidOf[slot] ?? '';
      const status = BOT_STATUSES[buffers.status[slot] ?? 0] as BotStatus;
      showTooltip(sx, sy, [
        `Propriétaire : ${buffers.owners[buffers.owner[slot] ?? 0] ?? ''}`,
        `HWID : ${hwid}`,
        `Personnage : ${buffers.characterOf[slot] ?? ''} (${buffers.nameOf[slot] ?? ''})`,
        `Statut : ${BOT_STATUS_LABELS[status]}`,
        `Position : [${buffers.x[slot]}, ${buffers.y[slot]}]`,
      ]);
      if (renderer.hoveredSlot !== slot) {
        renderer.hoveredSlot = slot;
        renderer.markDirty();
      }
    };
    // Touch: one finger pans, two fingers pinch to zoom around their middle.
    const pointers = new Map<number, { x: number; y: number }>();
    let pinchDistance = 0;
    const spread = () => {
      const [a, b] = [...pointers.values()];
      return a && b ? Math.hypot(a.x - b.x, a.y - b.y) : 0;
    };
    const onPointerDown = (event: PointerEvent) => {
      element.setPointerCapture(event.pointerId);
      pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
      if (pointers.size === 2) {
        pinchDistance = spread();
        drag = null;
        return;
      }
      drag = { x: event.clientX, y: event.clientY, moved: 0 };
    };
    const onPointerMove = (event: PointerEvent) => {
      const [sx, sy] = local(event);
      if (pointers.has(event.pointerId))
        pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
      if (pointers.size === 2) {
        const distance = spread();
        if (pinchDistance > 0 && distance > 0) {
          const [a, b] = [...pointers.values()] as [{ x: number; y: number }, { x: number; y: number }];
          const rect = element.getBoundingClientRect();
          renderer.zoomAt((a.x + b.x) / 2 - rect.left, (a.y + b.y) / 2 - rect.top, distance / pinchDistance);
        }
        pinchDistance = distance;
        hideTooltip();
        return;
      }
      if (drag) {
        const dx = event.clientX - drag.x;
        const dy = event.clientY - drag.y;
        drag = { x: event.clientX, y: event.clientY, moved: drag.moved + Math.abs(dx) + Math.abs(dy) };
        renderer.panBy(dx, dy);
        hideTooltip();
        return;
      }
      onHover(sx, sy);
    };
    const onPointerUp = (event: PointerEvent) => {
      const wasPinching = pointers.size === 2;
      pointers.delete(event.pointerId);
      if (wasPinching) return; // the other finger lifts next: no click, no pan jump
      const wasClick = drag !== null && drag.moved < 4;
      drag = null;
      if (!wasClick) return;
      const [sx, sy] = local(event);
      const slot = renderer.isClustered() ? -1 : renderer.pick(sx, sy);
      if (slot < 0 && renderer.pickCluster(sx, sy)) return renderer.zoomAt(sx, sy, 3);
      if (!renderer.isClustered())
        callbacks.current.onSelect(slot >= 0 ? (buffers.hwidOf[slot] ?? null) : null);
    };
    const onPointerCancel = (event: PointerEvent) => {
      pointers.delete(event.pointerId);
      drag = null;
    };
    const onWheel = (event: WheelEvent) => {
      event.preventDefault();
      const [sx, sy] = local(event);
      renderer.zoomAt(sx, sy, event.deltaY < 0 ? 1.2 : 1 / 1.2);
      hideTooltip();
    };
    element.addEventListener('pointerdown', onPointerDown);
    element.addEventListener('pointermove', onPointerMove);
    element.addEventListener('pointerup', onPointerUp);
    element.addEventListener('pointercancel', onPointerCancel);
    element.addEventListener('pointerleave', hideTooltip);
    element.addEventListener('wheel', onWheel, { passive: false });

    let uninstallTestHooks: (() => void) | undefined;
    let isUnmounted = false;
    if (localStorage.getItem(MAP_TEST_HOOK_FLAG) === '1') {
      void import('../map/test-hooks.ts').then(({ installMapTestHooks }) => {
        if (!isUnmounted) uninstallTestHooks = installMapTestHooks({ renderer, buffers, queryClient });
      });
    }

    return () => {
      unsubscribe();
      window.clearInterval(countsTimer);
      socketClient.setAdminViewport(undefined);
      resizeObserver.disconnect();
      renderer.stop();
      element.removeEventListener('pointerdown', onPointerDown);
      element.removeEventListener('pointermove', onPointerMove);
      element.removeEventListener('pointerup', onPointerUp);
      element.removeEventListener('pointercancel', onPointerCancel);
      element.removeEventListener('pointerleave', hideTooltip);
      element.removeEventListener('wheel', onWheel);
      engine.current = null;
      isUnmounted = true;
      uninstallTestHooks?.();
    };
  }, [queryClient]);

  /** Zoom buttons and keys act around the middle of the map. */
  const zoomCentre = (factor: number) => {
    const renderer = engine.current?.renderer;
    renderer?.zoomAt(renderer.width / 2, renderer.height / 2, factor);
  };
  const onKeyDown = (event: React.KeyboardEvent) => {
    const renderer = engine.current?.renderer;
    if (!renderer) return;
    const step = event.shiftKey ? 200 : 60;
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

  useEffect(() => {
    engine.current?.buffers.setFilter(filter);
    engine.current?.renderer.markDirty();
  }, [filter]);

  useEffect(() => {
    const current = engine.current;
    if (!current) return;
    current.renderer.selectedHwid = selectedHwid;
    current.renderer.markDirty();
  }, [selectedHwid]);

  useEffect(() => {
    const current = engine.current;
    if (!current || world.data === undefined) return;
    current.renderer.setWorld(world.data);
    current.renderer.fit();
  }, [world.data]);

  // The legend sits under the map, not over it: it hid the bots and zones in its corner.
  return (
    <Box sx={{ flexGrow: 1, minWidth: 0, display: 'flex', flexDirection: 'column', gap: 1 }}>
      <Box
        ref={container}
        role="group"
        tabIndex={0}
        aria-label="Carte : flèches pour se déplacer, + et − pour zoomer, 0 pour tout voir"
        aria-describedby={legendId}
        onKeyDown={onKeyDown}
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
        <MapControls
          onZoomIn={() => zoomCentre(BUTTON_ZOOM)}
          onZoomOut={() => zoomCentre(1 / BUTTON_ZOOM)}
          onFit={() => engine.current?.renderer.fit()}
        />
      </Box>
      <MapLegend id={legendId} />
    </Box>
  );
}
