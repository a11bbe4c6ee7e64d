import type { FastifyInstance } from 'fastify';

/**
 * One metric as `GET /api/metrics` shows it, read from the app's registry: the sum of its series
 * whose labels include `labels` (0 before the first one).
 */
export async function metricValue(
  app: FastifyInstance,
  name: string,
  labels: Record<string, string> = {},
): Promise<number> {
  const metric = app.ctx.metrics.registry.getSingleMetric(name);
  if (!metric) throw new Error(`métrique inconnue : ${name}`);
  const { values } = await metric.get();
  const matches = values.filter((entry) =>
    Object.entries(labels).every(([key, value]) => entry.labels[key] === value),
  );
  return matches.reduce((total, entry) => total + entry.value, 0);
}
