import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import { dayMonth, hourMinute } from '../lib/dates.ts';
import 'uplot/dist/uPlot.min.css';

/** Ticks in the viewer's time zone: hours for a day's chart, dates for a month's. */
const TICK_FORMATS = { hour: hourMinute, day: dayMonth };
const numberFormat = new Intl.NumberFormat('fr-FR');

/**
 * A small bar chart (uPlot) of one series over time, its total in the title; the instance is kept and
 * fed new data. `times` are the bars' starts in seconds (uPlot's unit).
 */
export function BarChart({
  title,
  times,
  values,
  color,
  testId,
  unit = 'hour',
  period,
  formatValue = (value) => numberFormat.format(value),
  showTotal = true,
}: {
  title: string;
  times: number[];
  values: number[];
  color: string;
  testId: string;
  unit?: 'hour' | 'day';
  /** Said after the total: "sur 24 h", "sur 30 jours". */
  period: string;
  formatValue?: (value: number) => string;
  /** False when the bars do not add up (distinct bots per hour). */
  showTotal?: boolean;
}) {
  const container = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  // The axis reads the latest formatter without rebuilding the chart.
  const formatTick = useRef(formatValue);
  formatTick.current = formatValue;

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
            values: (_u, ticks) => ticks.map((tick) => TICK_FORMATS[unit].format(new Date(tick * 1000))),
          },
          {
            stroke: '#aaa',
            grid: { stroke: 'rgba(255,255,255,0.06)' },
            values: (_u, ticks) => ticks.map((tick) => formatTick.current(tick)),
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
  }, [title, color, unit]);

  useEffect(() => {
    plot.current?.setData([times, values]);
  }, [times, values]);

  const total = values.reduce((sum, value) => sum + value, 0);
  return (
    <Box data-testid={testId}>
      <Typography variant="subtitle2" sx={{ mb: 1 }}>
        {title} ·{' '}
        {showTotal ? (
          <>
            <span data-testid={`${testId}-total`}>{formatValue(total)}</span>{' '}
          </>
        ) : null}
        {period}
      </Typography>
      <Box ref={container} sx={{ width: '100%', minHeight: 160 }} />
    </Box>
  );
}
