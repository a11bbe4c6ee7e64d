import { hash, randomBytes } from 'node:crypto';
import { v7 } from 'uuid';

/** Time-ordered UUID v7: index-friendly primary keys. */
export const newId = (): string => v7();

/** A 256-bit random secret, URL-safe. */
export const newSecret = (bytes = 32): string => randomBytes(bytes).toString('base64url');

/**
 * Secrets are stored only as this hash. Computed on every signed-in request and bot authentication:
 * the one-shot `crypto.hash` costs less than half of `createHash().update().digest()`.
 */
export const hashSecret = (secret: string): string => hash('sha256', secret, 'hex');
