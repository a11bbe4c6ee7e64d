import { BOT_STATUS_LABELS, BOT_STATUSES, type BotState, type BotStatus, countOf } from '@bot/contracts';
import Box from '@mui/material/Box';
import { hashKey, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import {
  applyBatch,
  applySnapshot,
  emptyFleet,
  type LiveFleet,
  liveKeys,
} from '../../../lib/socket/live-cache.ts';
import { worldQuery } from '../api/world.ts';
import { FleetBuffers, type MapFilter } from '../map/fleet-buffers.ts';
import { MapRenderer } from '../map/map-renderer.ts';

const FLEET_HASH = hashKey(liveKeys.fleet);
/** localStorage flag that lets the benchmark inject batches through the same cache path as the socket. */
const MAP_TEST_HOOK_FLAG = 'admin-map-test-hook';

export interface LiveMapProps {
  filter: MapFilter;
  selectedHwid: string | null;
  onSelect: (hwid: string | null) => void;
  /** Called with the counts (bots online, accounts drawn, accounts shown) — rarely, never per frame. */
  onCounts: (counts: { online: number; accounts: number; shown: number }) => void;
}

declare global {
  interface Window {
    __adminMap?: {
      renderer: MapRenderer;
      buffers: FleetBuffers;
      inject?: (states: BotState[], asSnapshot?: boolean) => void;
    };
  }
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
  const world = useQuery(worldQuery);
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
      const counts = { online: fleet?.onlineCount ?? 0, accounts: buffers.size, shown: buffers.visibleCount };
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
      lastFleet = fleet;
      reportCounts(fleet);
    };
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
    // Filters change the shown count without a fleet change.
    const countsTimer = window.setInterval(() => reportCounts(lastFleet), 500);

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
      if (renderer.isClustered()) {
        const cluster = renderer.pickCluster(sx, sy);
        if (cluster)
          showTooltip(sx, sy, [
            countOf(cluster.count, 'compte de jeu', 'comptes de jeu'),
            'Zoomez pour les voir un par un.',
          ]);
        else hideTooltip();
        return;
      }
      const slot = renderer.pick(sx, sy);
      if (slot < 0) return hideTooltip();
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
    const onPointerDown = (event: PointerEvent) => {
      element.setPointerCapture(event.pointerId);
      drag = { x: event.clientX, y: event.clientY, moved: 0 };
    };
    const onPointerMove = (event: PointerEvent) => {
      const [sx, sy] = local(event);
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
      const wasClick = drag !== null && drag.moved < 4;
      drag = null;
      if (!wasClick) return;
      const [sx, sy] = local(event);
      if (renderer.isClustered()) {
        if (renderer.pickCluster(sx, sy)) renderer.zoomAt(sx, sy, 3);
        return;
      }
      const slot = renderer.pick(sx, sy);
      callbacks.current.onSelect(slot >= 0 ? (buffers.hwidOf[slot] ?? null) : null);
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
    element.addEventListener('pointerleave', hideTooltip);
    element.addEventListener('wheel', onWheel, { passive: false });

    window.__adminMap = { renderer, buffers };
    if (localStorage.getItem(MAP_TEST_HOOK_FLAG) === '1') {
      // Same path as the admin socket's handlers in watchFleet (live-cache.ts).
      window.__adminMap.inject = (states, asSnapshot = false) => {
        const current = queryClient.getQueryData<LiveFleet>(liveKeys.fleet) ?? emptyFleet;
        queryClient.setQueryData(
          liveKeys.fleet,
          asSnapshot ? applySnapshot(states, undefined, current.version) : applyBatch(current, states),
        );
      };
    }

    return () => {
      unsubscribe();
      window.clearInterval(countsTimer);
      resizeObserver.disconnect();
      renderer.stop();
      element.removeEventListener('pointerdown', onPointerDown);
      element.removeEventListener('pointermove', onPointerMove);
      element.removeEventListener('pointerup', onPointerUp);
      element.removeEventListener('pointerleave', hideTooltip);
      element.removeEventListener('wheel', onWheel);
      engine.current = null;
      delete window.__adminMap;
    };
  }, [queryClient]);

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

  return (
    <Box
      ref={container}
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
    </Box>
  );
}
