import { z } from 'zod';
import { BOT_PERMISSIONS } from './permissions.ts';

/** The JOSE `typ` of a lease: a verifier refuses any other signed token (docs/licensing.md). */
export const LEASE_TYPE = 'bot-lease+jwt';
/** Where every node publishes the public keys that verify leases (at the root, not under /api). */
export const JWKS_PATH = '/.well-known/jwks.json';

/** The claims of a lease (a compact JWS, EdDSA/Ed25519): docs/licensing.md. */
export const leaseClaimsSchema = z.object({
  /** The user. */
  sub: z.string(),
  /** SHA-256 of the bound hwid, lower-case hex. */
  hwid: z.string().regex(/^[0-9a-f]{64}$/),
  /**
   * SHA-256 of the hwid the agent itself sent, when the platform recognised it as the bound PC under
   * another hwid (decision 906); absent when they are the same. The agent takes a bound hwid other
   * than its own only from a lease that names its own here (docs/licensing.md). Older agents ignore it.
   */
  agentHwid: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
  /** The paid packages running at issue time, each with the end of its last period. */
  packages: z.array(z.object({ id: z.string(), name: z.string(), endsAt: z.string() })),
  /** The bot permissions the user holds (what the agent may run). */
  entitlements: z.array(z.enum(BOT_PERMISSIONS)),
  /**
   * When each entitlement ends (ISO 8601), `null` when nothing ends it (a role, an administrator):
   * the agent stops using an entitlement past its own end. Absent from leases of older platforms.
   */
  entitlementEnds: z.partialRecord(z.enum(BOT_PERMISSIONS), z.string().nullable()).optional(),
  /** The whitelisted game accounts. */
  accounts: z.array(z.string()),
  /** Seconds past `exp` the agent may keep running while the platform is unreachable. */
  grace: z.number().int().min(0),
  /** The minimum agent version at issue time. */
  minVersion: z.string(),
  iat: z.number().int(),
  exp: z.number().int(),
});
export type LeaseClaims = z.infer<typeof leaseClaimsSchema>;

/** The longest lease lifetime and grace the settings accept (`leaseLifetimeHours`, `leaseGraceHours`). */
export const LEASE_MAX_LIFETIME_HOURS = 24 * 30;
export const LEASE_MAX_GRACE_HOURS = 24 * 30;
/**
 * The longest an agent runs on one lease after its `iat`, whatever it says (docs/licensing.md): the
 * longest lifetime plus the longest grace the platform can sign, 60 days.
 */
export const LEASE_MAX_RUN_SECONDS = (LEASE_MAX_LIFETIME_HOURS + LEASE_MAX_GRACE_HOURS) * 3600;

/** One public key of the set (an OKP/Ed25519 JWK). */
export const publicJwkSchema = z.looseObject({
  kty: z.literal('OKP'),
  crv: z.literal('Ed25519'),
  x: z.string(),
  kid: z.string(),
  alg: z.literal('EdDSA'),
  use: z.literal('sig'),
  /** What the key signs (decision 910); absent on keys published before release manifests: leases. */
  purpose: z.enum(['lease', 'release']).optional(),
});
export const jwksSchema = z.object({ keys: z.array(publicJwkSchema) });
export type PublicJwks = z.infer<typeof jwksSchema>;

/** `POST /api/bot/lease`: a fresh lease for a live bot session. */
export const leaseRenewInput = z.strictObject({
  token: z.string().min(1).max(200),
  hwid: z.string().trim().min(1).max(128),
});
/**
 * `POST /api/bot/lease`: the fresh lease, and when the bot session now ends (a renewal extends it
 * to `botSessionTtlMs` from now).
 */
export const leaseAnswer = z.object({ lease: z.string(), expiresAt: z.string() });

/**
 * `lease_renewed` (server → agent): what its lease holds changed (its whitelist, its entitlements),
 * so the platform pushes a fresh one at once, with the whitelist it names (decision 923). The agent
 * verifies it like any lease; the bot session is not extended (only the agent's renewals do that).
 */
export const leaseRenewalSchema = z.object({ lease: z.string(), whitelist: z.array(z.string()) });
export type LeaseRenewal = z.infer<typeof leaseRenewalSchema>;

export const SIGNING_KEY_STATES = ['current', 'standby', 'previous', 'revoked'] as const;
export type SigningKeyState = (typeof SIGNING_KEY_STATES)[number];
export const SIGNING_KEY_STATE_LABELS: Record<SigningKeyState, string> = {
  current: 'Clé en service',
  standby: 'Clé de réserve (prend le relais si la clé en service est révoquée)',
  previous: 'Ancienne clé (vérifie encore ce qu’elle a signé)',
  revoked: 'Révoquée',
};

/** A signing key as staff see it: never its private part. */
/** What a signing key signs: bot leases, or release manifests (decision 910). One current key each. */
export const SIGNING_KEY_PURPOSES = ['lease', 'release'] as const;
export type SigningKeyPurpose = (typeof SIGNING_KEY_PURPOSES)[number];
export const SIGNING_KEY_PURPOSE_LABELS: Record<SigningKeyPurpose, string> = {
  lease: 'Baux des bots',
  release: 'Manifestes des versions',
};

/** `POST /admin/signing-keys/rotate`: which key (the lease key when the body is empty). */
export const signingKeyRotateInput = z
  .strictObject({ purpose: z.enum(SIGNING_KEY_PURPOSES).default('lease') })
  .nullish();

export const signingKeySchema = z.object({
  kid: z.string(),
  purpose: z.enum(SIGNING_KEY_PURPOSES),
  state: z.enum(SIGNING_KEY_STATES),
  createdAt: z.string(),
  retiredAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  /** True while the JWKS publishes it. */
  published: z.boolean(),
});
export type SigningKey = z.infer<typeof signingKeySchema>;
export const signingKeysAnswer = z.object({ data: z.array(signingKeySchema) });
export const signingKeyAnswer = z.object({ data: signingKeySchema });

/**
 * The parts of a PC an agent reports, each as an HMAC-SHA-256 of its raw value under the product's
 * key, in lower-case hex (docs/licensing.md, decision 906). An agent that sends none is one component:
 * its hwid.
 */
export const HWID_COMPONENTS = ['machine', 'disk', 'board', 'nic', 'cpu'] as const;
export type HwidComponent = (typeof HWID_COMPONENTS)[number];

/** French names of the components, for the bot's timeline and the audit trail. */
export const HWID_COMPONENT_LABELS: Record<HwidComponent, string> = {
  machine: 'identifiant de la machine',
  disk: 'disque système',
  board: 'carte mère (BIOS)',
  nic: 'carte réseau',
  cpu: 'processeur',
};

const componentHashSchema = z.string().regex(/^[0-9a-f]{64}$/, 'Composant matériel invalide.');

/** What `POST /api/bot/sessions` accepts as `components`: any of the five (at least one). */
export const hwidComponentsSchema = z
  .strictObject({
    machine: componentHashSchema.optional(),
    disk: componentHashSchema.optional(),
    board: componentHashSchema.optional(),
    nic: componentHashSchema.optional(),
    cpu: componentHashSchema.optional(),
  })
  .refine((value) => Object.values(value).some(Boolean), 'Au moins un composant matériel.');
export type HwidComponents = Partial<Record<HwidComponent, string>>;

/** When a later session counts as the bound PC (the `hwidMatchPolicy` setting). */
export const HWID_MATCH_POLICIES = ['all', 'most', 'atLeastTwo'] as const;
export type HwidMatchPolicy = (typeof HWID_MATCH_POLICIES)[number];
export const HWID_MATCH_POLICY_LABELS: Record<HwidMatchPolicy, string> = {
  all: 'Tous les composants identiques',
  most: 'Plus de la moitié des composants identiques',
  atLeastTwo: 'Au moins deux composants identiques',
};

/** `GET /api/me/hwid-resets`: how many self-service unbinds the customer has left, before using one. */
export const hwidResetAllowanceSchema = z.object({
  /** The cap (`hwidResetsPerMonth`) over the window. */
  limit: z.number().int(),
  used: z.number().int(),
  remaining: z.number().int(),
  windowDays: z.number().int(),
  /** When the cooldown allows the next one (in the past: now). */
  nextResetAt: z.string(),
});
export type HwidResetAllowance = z.infer<typeof hwidResetAllowanceSchema>;
export const hwidResetAllowanceAnswer = z.object({ data: hwidResetAllowanceSchema });
