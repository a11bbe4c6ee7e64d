import { z } from 'zod';
import { listAnswer } from './admin.ts';
import { releaseRolloutSchema } from './release-rollouts.ts';

/**
 * Agent releases: builds of the bot agent that staff publish and customers download (decision 900).
 * A file is uploaded in parts of `RELEASE_PART_BYTES` (the last one shorter), then published with
 * the SHA-256 the uploader computed: the server checks it against what it stored.
 */
export const RELEASE_CHANNELS = ['stable', 'beta'] as const;
export type ReleaseChannel = (typeof RELEASE_CHANNELS)[number];
export const RELEASE_CHANNEL_LABELS: Record<ReleaseChannel, string> = { stable: 'Stable', beta: 'Bêta' };

/** 1 MiB: a part goes up in a few seconds even on a slow uplink (the server gives a request 30 s). */
export const RELEASE_PART_BYTES = 1024 * 1024;
export const RELEASE_MAX_PARTS = 512; // 512 MiB
/** The part size as people read it: "1 Mio". */
export const RELEASE_PART_LABEL = `${RELEASE_PART_BYTES / (1024 * 1024)} Mio`;
/** Unpublished drafts each staff member may hold at once (each may hold up to 512 MiB of parts). */
export const RELEASE_DRAFTS_PER_STAFF = 3;
/** A draft not published this long after it was started is deleted with its parts. */
export const RELEASE_DRAFT_TTL_MS = 24 * 60 * 60_000;
/** A download link works this long after it is handed out. */
export const RELEASE_LINK_TTL_MS = 15 * 60_000;

/** Each number of a version: no leading zero, at most 9 digits (what the server's `semver` reads). */
const VERSION_CORE = '(0|[1-9]\\d{0,8})\\.(0|[1-9]\\d{0,8})\\.(0|[1-9]\\d{0,8})';

/** Semantic version (semver.org 2.0.0) without build metadata: `1.4.0`, `1.5.0-beta.2`. */
export const semverSchema = z
  .string()
  .trim()
  .max(64)
  .regex(
    new RegExp(`^${VERSION_CORE}(-[0-9A-Za-z-]+(\\.[0-9A-Za-z-]+)*)?$`),
    // The agent's maker reads this alone: the whole format, and what was sent (docs/protocol.md).
    {
      error: (issue) =>
        `Version attendue au format MAJEUR.MINEUR.CORRECTIF (semver : trois nombres sans zéro en tête, comme 1.2.3), suivi ou non d’une préversion (1.2.3-beta.1) ; reçu « ${String(issue.input)} ».`,
    },
  );

/** A released version, without pre-release: the minimum version setting. */
export const stableVersionSchema = z
  .string()
  .trim()
  .regex(new RegExp(`^${VERSION_CORE}$`), 'Version attendue au format 1.2.3.');

export const releaseChannelSchema = z.enum(RELEASE_CHANNELS, { error: 'Canal inconnu (stable ou beta).' });

/**
 * A file name without control and format characters (`\p{Cc}`, `\p{Cf}`: a right-to-left override
 * would show `agent{U+202E}piz.exe` as `agentexe.zip`) nor path separators, trimmed: what a customer's
 * browser is told to save the build as.
 */
export function cleanFileName(name: string): string {
  return name.replace(/[\p{Cc}\p{Cf}/\\]/gu, '').trim();
}

/** The fields of a release staff fill in (the publish form validates them too). */
export const releaseInput = z.strictObject({
  version: semverSchema,
  channel: releaseChannelSchema,
  notes: z.string().trim().max(4000, 'Notes trop longues (4 000 caractères au plus).').default(''),
  fileName: z
    .string()
    .overwrite(cleanFileName)
    .min(1, 'Le nom du fichier est requis.')
    .max(200, 'Nom de fichier trop long.')
    .regex(/^[^<>:"|?*]+$/u, 'Nom de fichier invalide : les caractères < > : " | ? * sont refusés.'),
  /** The oldest agent able to install this build itself (told in its signed manifest). */
  minAgentVersion: z
    .string()
    .trim()
    .transform((value) => value || null)
    .pipe(semverSchema.nullable())
    .nullable()
    .default(null),
});
export type ReleaseInput = z.infer<typeof releaseInput>;

/**
 * Body of `POST /admin/releases`: a draft waiting for its file, whose size it declares (parts past
 * its end are refused, and only a file of that size is published).
 */
export const releaseDraftInput = releaseInput.extend({
  size: z
    .number()
    .int()
    .min(1, 'Le fichier est vide.')
    .max(RELEASE_MAX_PARTS * RELEASE_PART_BYTES, 'Fichier trop gros (512 Mio au plus).'),
});
export type ReleaseDraftInput = z.infer<typeof releaseDraftInput>;

/** The parts a file of `size` bytes is uploaded in. */
export function releasePartCount(size: number): number {
  return Math.max(1, Math.ceil(size / RELEASE_PART_BYTES));
}

/** Body of `POST /admin/releases/:id/publish`. */
export const releasePublishInput = z.strictObject({
  parts: z.number().int().min(1).max(RELEASE_MAX_PARTS),
  sha256: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[0-9a-f]{64}$/, 'Empreinte SHA-256 attendue (64 caractères hexadécimaux).'),
});
export type ReleasePublishInput = z.infer<typeof releasePublishInput>;

export const releasePartParams = z.object({
  id: z.string().uuid('Identifiant invalide.'),
  index: z.coerce
    .number()
    .int()
    .min(0)
    .max(RELEASE_MAX_PARTS - 1),
});

export const releaseSchema = z.object({
  id: z.string(),
  version: z.string(),
  channel: releaseChannelSchema,
  notes: z.string(),
  fileName: z.string(),
  /** Bytes: declared by the draft, checked at publication (null for drafts from before sizes were declared). */
  size: z.number().int().nullable(),
  sha256: z.string().nullable(),
  publishedAt: z.string().nullable(),
  createdAt: z.string(),
  createdBy: z.string().nullable(),
  /** Downloads started (requests from the first byte). */
  downloads: z.number().int(),
  minAgentVersion: z.string().nullable(),
  /** Staged rollout (decision 910); drafts have none yet. */
  rollout: releaseRolloutSchema,
});
export type Release = z.infer<typeof releaseSchema>;

/** `GET /admin/releases`: the shared admin list answer (`?page=&pageSize=&sort=&q=`). */
export const releasesAnswer = listAnswer(releaseSchema);

export const latestReleaseQuery = z.object({ channel: releaseChannelSchema.default('stable') });

/** `GET /releases/latest`: the newest build of a channel (beta includes stable) and a signed link. */
export const latestReleaseAnswer = z.object({
  data: z
    .object({
      release: releaseSchema.omit({ createdBy: true, downloads: true, rollout: true }),
      /** `url` is a path under the API base (`/releases/:id/download?expires=&signature=`). */
      download: z.object({ url: z.string(), expiresAt: z.string() }),
      /** The customer's bot online now: its version, and whether this build is newer (semver). */
      running: z.object({ version: z.string(), isOutdated: z.boolean() }).nullable(),
    })
    .nullable(),
});
export type LatestRelease = NonNullable<z.infer<typeof latestReleaseAnswer>['data']>;

export const releaseDownloadQuery = z.object({
  expires: z.coerce.number().int().nonnegative(),
  signature: z.string().max(128),
});

/** Told to an agent in its session answer when a newer build exists on its channel. */
export const agentUpdateSchema = z.object({
  version: z.string(),
  channel: releaseChannelSchema,
  notes: z.string(),
  /** Where the owner downloads it (signed in, from their bot page). */
  pageUrl: z.string(),
  /** The signed manifest (compact JWS, decision 910): what the SDK verifies before installing. */
  manifest: z.string().nullable(),
  /** The build this agent runs was withdrawn: this one is where it goes back to. */
  rollback: z.boolean(),
});
export type AgentUpdate = z.infer<typeof agentUpdateSchema>;

/** Version filter of the admin map and users-online: `1.4` matches 1.4.0 and 1.4.2-beta.1, not 1.40.0. */
export function versionMatches(version: string, wanted: string): boolean {
  const prefix = wanted.trim();
  return (
    prefix === '' ||
    version === prefix ||
    version.startsWith(`${prefix}.`) ||
    version.startsWith(`${prefix}-`)
  );
}

const fileSizeFormats = {
  kilobyte: new Intl.NumberFormat('fr-FR', { style: 'unit', unit: 'kilobyte', maximumFractionDigits: 0 }),
  megabyte: new Intl.NumberFormat('fr-FR', { style: 'unit', unit: 'megabyte', maximumFractionDigits: 1 }),
};

/** "850 ko", "12,4 Mo" (1 Mo = 1,000,000 bytes, as file managers on Windows and macOS show them). */
export function formatFileSize(bytes: number): string {
  return bytes < 1_000_000
    ? fileSizeFormats.kilobyte.format(Math.max(1, Math.round(bytes / 1000)))
    : fileSizeFormats.megabyte.format(bytes / 1_000_000);
}
