import type { RouteStep, World } from '@bot/contracts';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useEffect, useMemo, useRef, useState } from 'react';

const CELL = 8;

/** The world grid on a canvas: areas in colour, the route's steps numbered; a click picks a cell. */
export function WorldGrid({
  world,
  steps,
  onPick,
}: {
  world: World;
  steps: Pick<RouteStep, 'x' | 'y'>[];
  onPick: (cell: { mapId: number; x: number; y: number }) => void;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [hover, setHover] = useState<{ x: number; y: number } | null>(null);
  const { minX, maxX, minY, maxY } = world.bounds;
  const width = (maxX - minX + 1) * CELL;
  const height = (maxY - minY + 1) * CELL;
  const byCoord = useMemo(() => new Map(world.maps.map((map) => [`${map.x},${map.y}`, map])), [world.maps]);
  const areas = useMemo(() => new Map(world.areas.map((area) => [area.id, area])), [world.areas]);

  useEffect(() => {
    const context = canvas.current?.getContext('2d');
    if (!context) return;
    context.clearRect(0, 0, width, height);
    for (const map of world.maps) {
      context.fillStyle = areas.get(map.areaId)?.color ?? '#444';
      context.globalAlpha = 0.55;
      context.fillRect((map.x - minX) * CELL, (map.y - minY) * CELL, CELL - 1, CELL - 1);
    }
    context.globalAlpha = 1;
    const center = (step: { x: number; y: number }) => [
      (step.x - minX) * CELL + CELL / 2,
      (step.y - minY) * CELL + CELL / 2,
    ];
    if (steps.length > 1) {
      context.strokeStyle = '#ffffff';
      context.lineWidth = 2;
      context.beginPath();
      steps.forEach((step, index) => {
        const [x, y] = center(step);
        if (index === 0) context.moveTo(x ?? 0, y ?? 0);
        else context.lineTo(x ?? 0, y ?? 0);
      });
      context.stroke();
    }
    steps.forEach((step, index) => {
      const [x, y] = center(step);
      context.fillStyle = index === 0 ? '#4caf50' : index === steps.length - 1 ? '#f44336' : '#ffeb3b';
      context.beginPath();
      context.arc(x ?? 0, y ?? 0, CELL / 2 + 1, 0, Math.PI * 2);
      context.fill();
    });
  }, [world.maps, areas, steps, minX, minY, width, height]);

  const cellAt = (event: React.MouseEvent<HTMLCanvasElement>) => {
    const rect = event.currentTarget.getBoundingClientRect();
    const scale = width / rect.width;
    const x = Math.floor(((event.clientX - rect.left) * scale) / CELL) + minX;
    const y = Math.floor(((event.clientY - rect.top) * scale) / CELL) + minY;
    return x >= minX && x <= maxX && y >= minY && y <= maxY ? { x, y } : null;
  };
  const hovered = hover ? byCoord.get(`${hover.x},${hover.y}`) : undefined;

  return (
    <Box>
      <Box sx={{ overflow: 'auto', maxWidth: '100%', border: 1, borderColor: 'divider', borderRadius: 1 }}>
        <canvas
          ref={canvas}
          width={width}
          height={height}
          role="img"
          aria-label="Grille du monde : cliquez sur une carte pour ajouter une étape"
          data-testid="world-grid"
          data-min-x={minX}
          data-min-y={minY}
          data-cell={CELL}
          style={{ display: 'block', cursor: 'crosshair', width, maxWidth: 'none' }}
          onMouseMove={(event) => setHover(cellAt(event))}
          onMouseLeave={() => setHover(null)}
          onClick={(event) => {
            const cell = cellAt(event);
            const map = cell ? byCoord.get(`${cell.x},${cell.y}`) : undefined;
            if (map) onPick({ mapId: map.id, x: map.x, y: map.y });
          }}
        />
      </Box>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5, minHeight: 20 }}>
        {hovered
          ? `[${hovered.x}, ${hovered.y}] — ${areas.get(hovered.areaId)?.name ?? ''}`
          : 'Survolez la grille pour voir la carte.'}
      </Typography>
    </Box>
  );
}
