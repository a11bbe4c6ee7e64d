import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as zxcvbnCommon from '@zxcvbn-ts/language-common';
import * as zxcvbnFr from '@zxcvbn-ts/language-fr';
import argon2 from 'argon2';
import { AppError } from './errors.ts';

/** OWASP argon2id parameters: 19 MiB, t=2, p=1. argon2 hashes on libuv's pool, off the event loop. */
const ARGON2_OPTIONS = { type: argon2.argon2id, memoryCost: 19 * 1024, timeCost: 2, parallelism: 1 } as const;

/** zxcvbn score below which a password is refused (0-4; 3 = "safely unguessable"). */
const MIN_PASSWORD_SCORE = 3;

let estimator: ZxcvbnFactory | undefined;
/** The dictionaries are large: loaded on the first password checked, not at start-up. */
function getEstimator(): ZxcvbnFactory {
  estimator ??= new ZxcvbnFactory({
    dictionary: { ...zxcvbnCommon.dictionary, ...zxcvbnFr.dictionary },
    graphs: zxcvbnCommon.adjacencyGraphs,
    translations: zxcvbnFr.translations,
  });
  return estimator;
}

export const hashPassword = (password: string): Promise<string> => argon2.hash(password, ARGON2_OPTIONS);

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

/** Hash of a random password, verified against when the user is unknown so timing reveals nothing. */
let dummyHash: Promise<string> | undefined;
export function getDummyHash(): Promise<string> {
  dummyHash ??= hashPassword(`dummy-${Math.random()}`);
  return dummyHash;
}

/** Refuses common and easily guessed passwords (including ones built from the user's own name or e-mail). */
export async function assertStrongPassword(password: string, userInputs: string[] = []): Promise<void> {
  const result = await getEstimator().checkAsync(password, userInputs.filter(Boolean));
  if (result.score < MIN_PASSWORD_SCORE) {
    throw new AppError('WEAK_PASSWORD', {
      details: { score: result.score, suggestions: result.feedback.suggestions },
    });
  }
}
