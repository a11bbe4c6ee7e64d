import {
  type ErrorCode,
  type ErrorDetailsArgs,
  errorMessage,
  type SocketAck,
  type ValidationIssue,
} from '@bot/contracts';
import type { Logger } from 'pino';
import { z } from 'zod';
import { refusal } from './realtime.types.ts';

/**
 * The answers to an agent's messages (decision 923): every message it sends may carry a Socket.IO
 * acknowledgement callback, answered `{ok: true}` or `{ok: false, code, error, details?}` naming
 * what was refused, worded by the error table like every other refusal (docs/protocol.md).
 */

/** One shared object: the report path answers thousands a second. */
export const ACCEPTED: SocketAck = Object.freeze({ ok: true });

export function refused<C extends ErrorCode>(code: C, ...details: ErrorDetailsArgs<C>): SocketAck {
  return { ok: false, ...refusal(code, ...details) };
}

/** A payload its schema refused: `VALIDATION_ERROR`, the first refused fields by their path (`accounts.0.level`). */
export function invalid(error: z.ZodError): SocketAck {
  return refused('VALIDATION_ERROR', issuesOf(error.issues));
}

/**
 * At most this many refused fields are named, each path and message cut to this many characters: a
 * few bytes of malformed message never buy kilobytes of answer (docs/protocol.md, "Answers").
 */
const ANSWERED_ISSUES = 5;
const ISSUE_TEXT_MAX = 80;

/** The first refused fields by their path; an unknown key by its own path (`accounts.0.mood`), not its object's. */
export function issuesOf(issues: readonly z.core.$ZodIssue[]): ValidationIssue[] {
  const named: ValidationIssue[] = [];
  for (const issue of issues) {
    const paths =
      issue.code === 'unrecognized_keys' ? issue.keys.map((key) => [...issue.path, key]) : [issue.path];
    for (const path of paths) {
      if (named.length === ANSWERED_ISSUES) return named;
      named.push({ path: cut(path.join('.')), message: cut(issue.message) });
    }
  }
  return named;
}

const cut = (text: string): string =>
  text.length <= ISSUE_TEXT_MAX ? text : `${[...text].slice(0, ISSUE_TEXT_MAX - 1).join('')}…`;

/**
 * Reads an agent's message with its schema's parser, and refuses the NUL character (U+0000) as the
 * HTTP API does (`NUL_CHARACTER`): PostgreSQL stores none in text or jsonb, so a value holding one
 * would be answered `{ok: true}` and then lost, with the other bots' rows written beside it. Each
 * string holding one is a refused field, by its path, so a log line holding one is refused alone.
 */
export function readAgentMessage<T>(
  parse: (input: unknown) => z.ZodSafeParseResult<T>,
  payload: unknown,
): { success: true; data: T } | { success: false; error: z.ZodError } {
  const parsed = parse(payload);
  const nul = nulIssues(payload);
  if (nul.length === 0) return parsed;
  return { success: false, error: new z.ZodError(parsed.success ? nul : [...parsed.error.issues, ...nul]) };
}

/**
 * Deeper than this, no agent message's schema accepts anything (they nest four levels): a NUL
 * character down there is refused with the rest, and the scan stays short whatever the payload.
 */
const NUL_SCAN_DEPTH = 16;
const NUL = '\u0000';

/** Every string and key holding a NUL character, by its path. */
function nulIssues(payload: unknown): z.core.$ZodIssue[] {
  const paths: PropertyKey[][] = [];
  collectNulPaths(payload, [], paths);
  return paths.map((path) => ({
    code: 'custom',
    path,
    message: errorMessage('NUL_CHARACTER'),
    input: undefined,
  }));
}

/**
 * Walks the payload with one shared path, copied only where a NUL is found: the report path reads
 * thousands of messages a second.
 */
function collectNulPaths(value: unknown, path: PropertyKey[], found: PropertyKey[][]): void {
  if (value === null || typeof value !== 'object' || path.length >= NUL_SCAN_DEPTH) return;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) visit(value[index], index, path, found);
    return;
  }
  for (const key in value) {
    if (key.includes(NUL)) found.push([...path, key]);
    else visit((value as Record<string, unknown>)[key], key, path, found);
  }
}

function visit(item: unknown, key: PropertyKey, path: PropertyKey[], found: PropertyKey[][]): void {
  if (typeof item === 'string') {
    if (item.includes(NUL)) found.push([...path, key]);
  } else if (item !== null && typeof item === 'object') {
    path.push(key);
    collectNulPaths(item, path, found);
    path.pop();
  }
}

/**
 * Answers the agent when it passed a callback (acknowledgements stay optional). A message whose
 * handling failed is logged, and answered `INTERNAL`.
 */
export function acknowledge(log: Logger, callback: unknown, answer: SocketAck | Promise<SocketAck>): void {
  const reply = typeof callback === 'function' ? (callback as (answer: SocketAck) => void) : undefined;
  if (!(answer instanceof Promise)) {
    reply?.(answer);
    return;
  }
  answer.then(
    (settled) => reply?.(settled),
    (error: unknown) => {
      log.error({ err: error }, 'message d’un agent non traité');
      reply?.(refused('INTERNAL'));
    },
  );
}
