import { randomUUID } from 'node:crypto';
import {
  BOT_LOG_BATCH_MAX_LINES,
  BOT_LOG_RECENT_LINES,
  BOT_LOG_REDACTED,
  type BotLogBatch,
  type BotLogLevel,
  type BotLogLineInput,
} from '@bot/contracts';

/** What replaces a secret in a line (the server's redaction uses the same marker). */
export const REDACTED = BOT_LOG_REDACTED;
/** A JSON Web Token (leases, sessions): three base64url parts, the first a JSON header. */
const JWT_PATTERN = /eyJ[\w-]+\.[\w-]+\.[\w-]+/g;
/** Lines waiting to leave while streaming; past this they are counted as dropped. */
const QUEUE_MAX = 200;
/** How often queued lines leave while streaming. */
const FLUSH_MS = 250;

export interface AgentLogOptions {
  /** The secrets of the moment (access key, session token, lease): never written. */
  secrets: () => readonly (string | undefined)[];
  /** More patterns to remove (a game password, a proxy URL...). */
  redact?: readonly RegExp[];
  /** Sends a batch on the socket; false when not connected. */
  send: (batch: BotLogBatch) => boolean;
  now?: () => number;
}

/** Writes the agent's log: kept in a ring buffer, streamed only while someone reads the journal. */
export interface AgentLogger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  /** The lines kept (the last `BOT_LOG_RECENT_LINES`), secrets already removed. */
  recent(): readonly BotLogLineInput[];
  /** Someone reads the journal now: lines leave as they are written. */
  readonly isStreaming: boolean;
}

interface KeptLine {
  seq: number;
  line: BotLogLineInput;
}

/**
 * The agent's side of "Journal du bot" (decision 209). Every line loses its secrets as it is
 * written and joins a ring buffer; when the server says someone opened the journal
 * (`bot_log_start`), the lines it never received leave first (`backlog`), then new ones every
 * `FLUSH_MS`, until `bot_log_stop` or a disconnection. Nothing leaves while nobody watches.
 */
export class AgentLog implements AgentLogger {
  private readonly ring: KeptLine[] = [];
  /** This run's part of the lines' ids. */
  private readonly runId = randomUUID().slice(0, 8);
  private queue: BotLogLineInput[] = [];
  private nextSeq = 1;
  /** Every line up to this one is on the server already. */
  private sentUpTo = 0;
  private dropped = 0;
  private timer: NodeJS.Timeout | undefined;
  /** Streaming was asked and the ring buffer's missing lines have not left yet. */
  private isBacklogPending = false;

  constructor(private readonly options: AgentLogOptions) {}

  get isStreaming(): boolean {
    return this.timer !== undefined;
  }

  debug(message: string): void {
    this.write('debug', message);
  }
  info(message: string): void {
    this.write('info', message);
  }
  warn(message: string): void {
    this.write('warn', message);
  }
  error(message: string): void {
    this.write('error', message);
  }

  recent(): readonly BotLogLineInput[] {
    return this.ring.map((kept) => kept.line);
  }

  /**
   * The server asked for the log: what it lacks of the ring buffer, then the tail. The request may
   * come before the connection is authenticated (the server asks as it admits the agent): what
   * cannot leave yet leaves at the next flush.
   */
  start(): void {
    this.stop();
    this.isBacklogPending = true;
    this.timer = setInterval(() => this.flush(), FLUSH_MS);
    this.timer.unref();
    this.flush();
  }

  /** Nobody reads the journal any more (or the connection is gone): nothing leaves. */
  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.queue = [];
    this.dropped = 0;
    this.isBacklogPending = false;
  }

  private write(level: BotLogLevel, message: string): void {
    const seq = this.nextSeq++;
    const line: BotLogLineInput = {
      // Unique on this PC across runs: a line sent again (a backlog resent) is kept once (decision 923).
      id: `${this.runId}-${seq}`,
      level,
      time: new Date(this.options.now?.() ?? Date.now()).toISOString(),
      message: this.redact(message),
    };
    this.ring.push({ seq, line });
    if (this.ring.length > BOT_LOG_RECENT_LINES) this.ring.shift();
    // Before the backlog has left, a new line is part of it.
    if (!this.isStreaming || this.isBacklogPending) return;
    this.sentUpTo = seq;
    if (this.queue.length < QUEUE_MAX) this.queue.push(line);
    else this.dropped += 1;
  }

  private flush(): void {
    if (this.isBacklogPending && !this.sendBacklog()) return;
    if (this.queue.length === 0 && this.dropped === 0) return;
    const lines = this.queue.slice(0, BOT_LOG_BATCH_MAX_LINES);
    const batch: BotLogBatch = this.dropped > 0 ? { lines, dropped: this.dropped } : { lines };
    if (!this.options.send(batch)) return;
    this.queue = this.queue.slice(lines.length);
    this.dropped = 0;
  }

  /** The ring buffer's lines the server never received, in batches; false when one could not leave. */
  private sendBacklog(): boolean {
    const backlog = this.ring.filter((kept) => kept.seq > this.sentUpTo);
    for (let at = 0; at < backlog.length; at += BOT_LOG_BATCH_MAX_LINES) {
      const chunk = backlog.slice(at, at + BOT_LOG_BATCH_MAX_LINES);
      if (!this.options.send({ lines: chunk.map((kept) => kept.line), backlog: true })) return false;
      this.sentUpTo = chunk.at(-1)?.seq ?? this.sentUpTo;
    }
    this.sentUpTo = this.nextSeq - 1;
    this.isBacklogPending = false;
    return true;
  }

  private redact(message: string): string {
    let clean = message;
    for (const secret of this.options.secrets())
      if (secret && secret.length >= 4) clean = clean.split(secret).join(REDACTED);
    clean = clean.replace(JWT_PATTERN, REDACTED);
    for (const pattern of this.options.redact ?? [])
      clean = clean.replace(
        new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`),
        REDACTED,
      );
    return clean;
  }
}
