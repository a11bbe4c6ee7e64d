import { type EventLoopUtilization, monitorEventLoopDelay, performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import { Gauge, type Registry } from 'prom-client';

/** Seconds an overloaded node asks to wait (readiness, refused bot handshakes): a few samples' worth. */
export const OVERLOADED_RETRY_AFTER_S = 5;

/** When a node calls itself overloaded (decision 603 amended by issue 36, see docs/capacity.md). */
export interface LoadConfig {
  /** How often the event loop's utilisation is read. */
  sampleMs: number;
  /** Utilisation (0-1) at or above which, `samplesToEnter` times in a row, the node is overloaded. */
  enterUtilization: number;
  /** Utilisation below which it is no longer (hysteresis: it does not flap around one threshold). */
  exitUtilization: number;
  samplesToEnter: number;
  /** A node starting (migrations, first compilations) is busy by nature: not judged this long. */
  warmupMs: number;
}

/**
 * A node's own headroom, read from Node's event loop (`performance.eventLoopUtilization`, the share
 * of time the loop was busy, and `monitorEventLoopDelay`): past the threshold the node is
 * overloaded until it falls back below a lower one. The readiness check, the bot sockets'
 * admission and the metrics read it.
 */
export class LoadMonitor {
  private previous: EventLoopUtilization = performance.eventLoopUtilization();
  private readonly delay = monitorEventLoopDelay({ resolution: 20 });
  private busySamples = 0;
  private overloaded = false;
  private readonly startedAt = Date.now();
  /** The last sample's utilisation (0-1) and event-loop delay p99 (ms). */
  utilization = 0;
  delayP99Ms = 0;

  constructor(
    private readonly config: LoadConfig,
    private readonly log: Logger,
    registry: Registry,
  ) {
    this.delay.enable();
    const monitor = this;
    new Gauge({
      name: 'node_event_loop_utilization',
      help: 'Share of the last sample the event loop was busy (0-1)',
      registers: [registry],
      collect() {
        this.set(monitor.utilization);
      },
    });
    new Gauge({
      name: 'node_overloaded',
      help: '1 while this node is overloaded: readiness fails, new bot sockets are refused',
      registers: [registry],
      collect() {
        this.set(monitor.overloaded ? 1 : 0);
      },
    });
  }

  get isOverloaded(): boolean {
    return this.overloaded;
  }

  /** One reading (a background loop calls it every `sampleMs`). */
  sample(): void {
    const now = performance.eventLoopUtilization();
    this.utilization = performance.eventLoopUtilization(now, this.previous).utilization;
    this.previous = now;
    this.delayP99Ms = this.delay.percentile(99) / 1e6;
    this.delay.reset();
    const { enterUtilization, exitUtilization, samplesToEnter, warmupMs } = this.config;
    if (Date.now() - this.startedAt < warmupMs) return;
    this.busySamples = this.utilization >= enterUtilization ? this.busySamples + 1 : 0;
    if (!this.overloaded && this.busySamples >= samplesToEnter) this.change(true);
    else if (this.overloaded && this.utilization < exitUtilization) this.change(false);
  }

  close(): void {
    this.delay.disable();
  }

  private change(overloaded: boolean): void {
    this.overloaded = overloaded;
    const figures = { utilization: this.utilization, delayP99Ms: this.delayP99Ms };
    if (overloaded) this.log.warn(figures, 'nœud surchargé : nouveaux bots refusés, disponibilité en échec');
    else this.log.info(figures, 'nœud de nouveau disponible');
  }
}
