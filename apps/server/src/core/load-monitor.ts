import { readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
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
  /**
   * Share (0-1) of the process's open-file limit at which the node is overloaded too, and under which
   * it no longer is: every socket is a file, and past the limit accepting one fails.
   */
  enterOpenFiles: number;
  exitOpenFiles: number;
}

/** What made the node overloaded: a busy event loop, or open files near the process's limit. */
export type OverloadCause = 'eventLoop' | 'openFiles';

/**
 * Why the node is overloaded, for the operator reading its readiness answer: the last sample's
 * figures (rounded) beside the thresholds they are judged against.
 */
export interface LoadReading {
  /** What keeps the node overloaded now (open files first: past the limit nothing is accepted). */
  cause: OverloadCause;
  /** Share (0-1) of the last sample the event loop was busy. */
  utilization: number;
  enterUtilization: number;
  exitUtilization: number;
  /** Open files over the process's limit (0-1). */
  openFilesShare: number;
  enterOpenFiles: number;
  exitOpenFiles: number;
  /** The event loop's delay p99 in the last sample (ms): shown, not judged on. */
  delayP99Ms: number;
}

/** Share of the open-file limit the HTTP server's connections may take (the rest: database, logs, files). */
const MAX_CONNECTIONS_SHARE = 0.95;

/** The soft limit of open files of this process (Linux), undefined where it cannot be read. */
function openFileLimit(): number | undefined {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((candidate) => candidate.startsWith('Max open files'));
    const limit = Number(line?.split(/\s+/)[3]);
    return Number.isFinite(limit) && limit > 0 ? limit : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A node's own headroom, read from Node's event loop (`performance.eventLoopUtilization`, the share
 * of time the loop was busy, and `monitorEventLoopDelay`) and from its open files against the
 * process's limit: past either threshold the node is overloaded until both fall back below lower ones. The readiness check, the bot sockets'
 * admission and the metrics read it.
 */
export class LoadMonitor {
  private previous: EventLoopUtilization = performance.eventLoopUtilization();
  private readonly delay = monitorEventLoopDelay({ resolution: 20 });
  private busySamples = 0;
  private overloaded = false;
  private cause: OverloadCause = 'eventLoop';
  private readonly startedAt = Date.now();
  private readonly fileLimit = openFileLimit();
  private isCountingFiles = false;
  /** The last sample's utilisation (0-1), event-loop delay p99 (ms) and share of the open-file limit in use. */
  utilization = 0;
  delayP99Ms = 0;
  openFilesShare = 0;

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
      name: 'node_open_files_ratio',
      help: 'Open files of this process over its limit (0-1): every socket is one',
      registers: [registry],
      collect() {
        this.set(monitor.openFilesShare);
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

  /** Why the node is overloaded, with its last figures and thresholds (the readiness answer). */
  get reading(): LoadReading {
    const { enterUtilization, exitUtilization, enterOpenFiles, exitOpenFiles } = this.config;
    const round = (value: number) => Math.round(value * 1000) / 1000;
    return {
      cause: this.currentCause(),
      utilization: round(this.utilization),
      enterUtilization,
      exitUtilization,
      openFilesShare: round(this.openFilesShare),
      enterOpenFiles,
      exitOpenFiles,
      delayP99Ms: Math.round(this.delayP99Ms * 10) / 10,
    };
  }

  /**
   * What holds the node overloaded: the open files while above their exit threshold, else the
   * event loop while above its own, else what made it enter (it leaves at the next sample).
   */
  private currentCause(): OverloadCause {
    if (this.openFilesShare >= this.config.exitOpenFiles) return 'openFiles';
    if (this.utilization >= this.config.exitUtilization) return 'eventLoop';
    return this.cause;
  }

  /** One reading (a background loop calls it every `sampleMs`). */
  sample(): void {
    const now = performance.eventLoopUtilization();
    this.utilization = performance.eventLoopUtilization(now, this.previous).utilization;
    this.previous = now;
    this.delayP99Ms = this.delay.percentile(99) / 1e6;
    this.delay.reset();
    this.countOpenFiles();
    const { enterUtilization, exitUtilization, samplesToEnter, warmupMs, enterOpenFiles, exitOpenFiles } =
      this.config;
    if (Date.now() - this.startedAt < warmupMs) return;
    this.busySamples = this.utilization >= enterUtilization ? this.busySamples + 1 : 0;
    const isBusy = this.busySamples >= samplesToEnter || this.openFilesShare >= enterOpenFiles;
    const isIdle = this.utilization < exitUtilization && this.openFilesShare < exitOpenFiles;
    if (!this.overloaded && isBusy) this.change(true);
    else if (this.overloaded && isIdle) this.change(false);
  }

  /**
   * Connections the HTTP server should hold at most (`server.maxConnections`: past it Node closes a
   * new connection at once): files are kept for the database, logs and refusals in flight, so the
   * process never runs out. Undefined where the limit is unknown.
   */
  get maxConnections(): number | undefined {
    return this.fileLimit ? Math.floor(this.fileLimit * MAX_CONNECTIONS_SHARE) : undefined;
  }

  /**
   * Counts the open files in the background (the next samples decide on it): listing thousands of
   * descriptors took 5 ms of the event loop each second at 5,000 bots, the owners' slowest updates.
   */
  private countOpenFiles(): void {
    const limit = this.fileLimit;
    if (!limit || this.isCountingFiles) return;
    this.isCountingFiles = true;
    readdir('/proc/self/fd')
      .then(
        (entries) => {
          this.openFilesShare = entries.length / limit;
        },
        () => {
          this.openFilesShare = 1; // no file left even to list them (EMFILE): at the limit
        },
      )
      .finally(() => {
        this.isCountingFiles = false;
      });
  }

  close(): void {
    this.delay.disable();
  }

  private change(overloaded: boolean): void {
    this.overloaded = overloaded;
    const { enterUtilization, exitUtilization, enterOpenFiles, exitOpenFiles } = this.config;
    const figures = {
      utilization: this.utilization,
      delayP99Ms: this.delayP99Ms,
      openFilesShare: this.openFilesShare,
    };
    // Both at warn: an operator who sees a node enter overload at that level sees it leave too.
    if (overloaded) {
      this.cause = this.openFilesShare >= enterOpenFiles ? 'openFiles' : 'eventLoop';
      this.log.warn(
        { ...figures, cause: this.cause, enterUtilization, enterOpenFiles },
        this.cause === 'openFiles'
          ? 'nœud surchargé (fichiers ouverts) : nouveaux bots refusés, disponibilité en échec'
          : 'nœud surchargé (boucle d’événements) : nouveaux bots refusés, disponibilité en échec',
      );
    } else
      this.log.warn(
        { ...figures, exitUtilization, exitOpenFiles },
        'nœud de nouveau disponible : nouveaux bots acceptés',
      );
  }
}
