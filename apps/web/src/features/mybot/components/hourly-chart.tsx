import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

const hourFormat = new Intl.DateTimeFormat('fr-FR', { hour: '2-digit', minute: '2-digit' });
const numberFormat = new Intl.NumberFormat('fr-FR');

/** A small bar-like uPlot chart of one hourly series; the instance is kept and fed new data. */
export function HourlyChart({
  title,
  hours,
  values,
  color,
  testId,
}: {
  title: string;
  hours: number[];
  values: number[];
  color: string;
  testId: string;
}) {
  const container = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const width = Math.max(240, element.clientWidth);
    const chart = new uPlot(
      {
        width,
        height: 160,
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: true } },
        axes: [
          {
            stroke: '#aaa',
            grid: { stroke: 'rgba(255,255,255,0.06)' },
            values: (_u, ticks) => ticks.map((tick) => hourFormat.format(new Date(tick * 1000))),
          },
          {
            stroke: '#aaa',
            grid: { stroke: 'rgba(255,255,255,0.06)' },
            values: (_u, ticks) => ticks.map((tick) => numberFormat.format(tick)),
            size: 60,
          },
        ],
        series: [
          {},
          {
            label: title,
            stroke: color,
            fill: `${color}55`,
            width: 2,
            paths: uPlot.paths.bars?.({ size: [0.7, 40] }),
            points: { show: false },
          },
        ],
      },
      [[], []],
      element,
    );
    plot.current = chart;
    const observer = new ResizeObserver(() =>
      chart.setSize({ width: Math.max(240, element.clientWidth), height: 160 }),
    );
    observer.observe(element);
    return () => {
      observer.disconnect();
      chart.destroy();
      plot.current = null;
    };
  }, [title, color]);

  useEffect(() => {
    plot.current?.setData([hours, values]);
  }, [hours, values]);

  const total = values.reduce((sum, value) => sum + value, 0);
  return (
    <Box data-testid={testId}>
      <Typography variant="subtitle2" sx={{ mb: 1 }}>
        {title} · <span data-testid={`${testId}-total`}>{numberFormat.format(total)}</span> sur 24 h
      </Typography>
      <Box ref={container} sx={{ width: '100%', minHeight: 160 }} />
    </Box>
  );
}
