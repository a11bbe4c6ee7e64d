import { z } from 'zod';
import { publicJwkSchema, SIGNING_KEY_PURPOSES } from './licensing.ts';

/**
 * The root of trust of agents (docs/licensing.md, decision 912): an offline Ed25519 root key signs
 * the key set (the lease and release keys); an agent pins the root's public key and trusts a key
 * only when a set the root signed names it.
 */

/** Where every node publishes the root-signed key set and the revocations (beside the JWKS). */
export const KEY_SET_PATH = '/.well-known/bot-keyset.json';
/**
 * Where a loopback installation (a trial, the demo, the tests) publishes its development root's
 * public key, for the simulator and the tests only; a public installation answers 404. An agent
 * never fetches its root: it is built in.
 */
export const DEV_TRUST_ROOT_PATH = '/.well-known/bot-dev-root.json';
/** The JOSE `typ` of a key set signed by the root. */
export const KEY_SET_TYPE = 'bot-keyset+jwt';
/** The JOSE `typ` of a revocation statement, signed by a key of the current set. */
export const KEY_REVOCATION_TYPE = 'bot-key-revocation+jwt';

/** One key of the set: the public JWK, what it signs and until when it may be trusted (seconds). */
export const keySetKeySchema = publicJwkSchema.extend({
  purpose: z.enum(SIGNING_KEY_PURPOSES),
  expiresAt: z.number().int(),
});
export type KeySetKey = z.infer<typeof keySetKeySchema>;

/** The payload of a key set: a higher version replaces a lower one; none is trusted past `expiresAt`. */
export const keySetClaimsSchema = z.object({
  version: z.number().int().positive(),
  issuedAt: z.number().int(),
  expiresAt: z.number().int(),
  keys: z.array(keySetKeySchema),
});
export type KeySetClaims = z.infer<typeof keySetClaimsSchema>;

/** The payload of a revocation statement: this key signs nothing acceptable any more. */
export const keyRevocationClaimsSchema = z.object({
  revokedKid: z.string().min(1),
  revokedAt: z.number().int(),
});

/** `GET /.well-known/bot-keyset.json`: the signed set and the signed revocations of its keys. */
export const keySetAnswer = z.object({ keySet: z.string(), revocations: z.array(z.string()) });
export type KeySetAnswer = z.infer<typeof keySetAnswer>;

/** The public root key (an OKP/Ed25519 JWK) an agent pins. */
export const trustRootSchema = z.looseObject({
  kty: z.literal('OKP'),
  crv: z.literal('Ed25519'),
  x: z.string(),
});

/** `GET /admin/key-set`: the set in service as staff see it, and the command that rotates it. */
export const keySetStatusSchema = z.object({
  version: z.number().int(),
  issuedAt: z.string(),
  expiresAt: z.string(),
  /** Thumbprint of the root that signed it. */
  rootKid: z.string(),
  /** Signed by the development root a loopback installation makes for itself. */
  isDevelopmentRoot: z.boolean(),
  keys: z.array(z.object({ kid: z.string(), purpose: z.enum(SIGNING_KEY_PURPOSES), expiresAt: z.string() })),
  /** The exact command an operator runs, with the root key file, to rotate or renew the set. */
  rotateCommand: z.string(),
});
export type KeySetStatus = z.infer<typeof keySetStatusSchema>;
export const keySetStatusAnswer = z.object({ data: keySetStatusSchema.nullable() });

/** Staff are alerted this many days before the key set expires. */
export const KEY_SET_EXPIRY_WARNING_DAYS = 14;
/** How long a key set lasts unless `keys:rotate --days` says otherwise. */
export const KEY_SET_LIFETIME_DAYS = 180;
