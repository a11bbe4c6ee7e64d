import type { FastifyInstance } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { PRODUCT_VERSION } from './paths.ts';

/**
 * Prometheus metrics of one app (one registry per app, so tests can run several side by side).
 * Modules add their own families to `registry` where the numbers live (the hub: sockets, bots).
 */
export interface Metrics {
  registry: Registry;
  /** Error answers by machine code (`{error, code}`), counted by the error handler. */
  errors: Counter<'code'>;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  // Process figures, event-loop lag among them (nodejs_eventloop_lag_seconds and percentiles).
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });
  const errors = new Counter({
    name: 'http_errors_total',
    help: 'Error answers by machine code',
    labelNames: ['code'],
    registers: [registry],
  });
  // The usual Prometheus idiom: a constant 1 whose labels say what runs (a dashboard joins on it).
  new Gauge({
    name: 'build_info',
    help: 'The product version this node runs (value always 1)',
    labelNames: ['version', 'node'],
    registers: [registry],
  }).set({ version: PRODUCT_VERSION, node: process.version }, 1);
  return { registry, errors };
}

/** Latency of every HTTP answer, by route pattern (never the raw URL: bounded label values). */
export function measureHttpLatency(app: FastifyInstance, metrics: Metrics): void {
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP answer latency by route',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [metrics.registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    latency.observe(
      {
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        status: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
  });
}
