import type { ErrorCode, ErrorDetailsArgs, SocketAck, ValidationIssue } from '@bot/contracts';
import type { Logger } from 'pino';
import type { z } from 'zod';
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

/** A payload its schema refused: `VALIDATION_ERROR`, each refused field by its path (`accounts.0.level`). */
export function invalid(error: z.ZodError): SocketAck {
  return refused('VALIDATION_ERROR', issuesOf(error));
}

/** Each refused field by its path; an unknown key by its own path (`accounts.0.mood`), not its object's. */
export function issuesOf(error: z.ZodError): ValidationIssue[] {
  return error.issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({ path: [...issue.path, key].join('.'), message: issue.message }))
      : [{ path: issue.path.join('.'), message: issue.message }],
  );
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
