import { z } from 'zod';

/**
 * Staged rollouts of agent releases (decision 910): a published build is offered to a share of its
 * channel's bots, chosen by a hash of the hwid and the release (a bot never flips in and out), which
 * staff raise by hand or by steps; it halts itself when its bots fare worse than the previous
 * version's; a yanked build is no longer offered and its agents are told to go back.
 */
export const ROLLOUT_STATES = ['rolling', 'paused', 'halted', 'complete', 'yanked'] as const;
export type RolloutState = (typeof ROLLOUT_STATES)[number];

export const ROLLOUT_STATE_LABELS: Record<RolloutState, string> = {
  rolling: 'Déploiement en cours',
  paused: 'Déploiement en pause',
  halted: 'Arrêté automatiquement',
  complete: 'Proposée à tous',
  yanked: 'Retirée',
};

/** One step of a schedule: raise the share to `percent` once `afterHours` passed at the step before. */
export const rolloutStepSchema = z.strictObject({
  percent: z.number().int().min(1, 'Entre 1 et 100 %.').max(100, 'Entre 1 et 100 %.'),
  afterHours: z
    .number()
    .int()
    .min(1, 'Au moins 1 heure.')
    .max(24 * 30, 'Au plus 30 jours.'),
});
export type RolloutStep = z.infer<typeof rolloutStepSchema>;

/** The figures a rollout is judged on, per bot of each version over the window. */
export const HEALTH_FIGURES = ['errorShare', 'reconnectsPerBot', 'crashesPerBot'] as const;
export type HealthFigure = (typeof HEALTH_FIGURES)[number];

export const HEALTH_FIGURE_LABELS: Record<HealthFigure, string> = {
  errorShare: 'Comptes de jeu en erreur (%)',
  reconnectsPerBot: 'Reconnexions par bot (1 h)',
  crashesPerBot: 'Plantages signalés par bot (1 h)',
};

/** The new version's bots against the previous version's, as the halt read them. */
export const releaseHealthSchema = z.object({
  at: z.string(),
  /** The version compared with (null: every other version of the fleet). */
  baselineVersion: z.string().nullable(),
  releaseBots: z.number().int(),
  baselineBots: z.number().int(),
  figures: z.array(
    z.object({
      name: z.enum(HEALTH_FIGURES),
      release: z.number(),
      baseline: z.number(),
      /** Past the threshold: what halted the rollout. */
      exceeded: z.boolean(),
    }),
  ),
});
export type ReleaseHealth = z.infer<typeof releaseHealthSchema>;

export const releaseRolloutSchema = z.object({
  state: z.enum(ROLLOUT_STATES),
  percent: z.number().int(),
  steps: z.array(rolloutStepSchema),
  changedAt: z.string().nullable(),
  /** Why it halted itself (state `halted`), kept after staff resume it. */
  halt: releaseHealthSchema.nullable(),
  yankReason: z.string().nullable(),
});
export type ReleaseRollout = z.infer<typeof releaseRolloutSchema>;

/** `PUT /admin/releases/:id/rollout`: raise or lower the share, set the steps, pause or resume. */
export const releaseRolloutInput = z.strictObject({
  percent: z.number().int().min(0, 'Entre 0 et 100 %.').max(100, 'Entre 0 et 100 %.').optional(),
  steps: z
    .array(rolloutStepSchema)
    .max(5, 'Cinq étapes au plus.')
    .refine(
      (steps) => steps.every((step, index) => index === 0 || step.percent > (steps[index - 1]?.percent ?? 0)),
      'Chaque étape doit proposer la version à plus de bots que la précédente.',
    )
    .optional(),
  state: z.enum(['rolling', 'paused']).optional(),
});
export type ReleaseRolloutInput = z.infer<typeof releaseRolloutInput>;

/** `POST /admin/releases/:id/yank`: why the build is withdrawn (told to staff, kept in the audit). */
export const releaseYankInput = z.strictObject({
  reason: z.string().trim().min(1, 'Indiquez la raison du retrait.').max(500, '500 caractères au plus.'),
});

/** The `typ` of a signed release manifest (a compact JWS, EdDSA), and of a lease's key purpose. */
export const RELEASE_MANIFEST_TYPE = 'bot-release+jwt';

/**
 * What an agent is told about a build, signed with the platform's release key: it installs only a
 * file of exactly this size and SHA-256. `rollback`: the build it runs was withdrawn, go back to this.
 */
export const releaseManifestSchema = z.object({
  releaseId: z.string(),
  version: z.string(),
  channel: z.enum(['stable', 'beta']),
  size: z.number().int().positive(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** Absolute download address, valid as long as the manifest. */
  url: z.string().url(),
  minAgentVersion: z.string().nullable(),
  rollback: z.boolean(),
  /**
   * With `rollback`: the withdrawn version the agent goes back from. An agent installs an older
   * build only from a manifest that names the version it runs here (decision 912).
   */
  rollbackFrom: z.string().optional(),
  /** Where the owner downloads it by hand (signed too: an agent shows it). */
  pageUrl: z.string().url(),
});
export type ReleaseManifest = z.infer<typeof releaseManifestSchema>;

/** `POST /api/bot/update-deferral`: the agent puts the update off until then (staff see it). */
export const updateDeferralInput = z.strictObject({
  token: z.string().min(1).max(256),
  hwid: z.string().min(8).max(128),
  version: z.string().max(64),
  minutes: z
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 60),
});

/** Bots online per version at one sampling time (the releases page's adoption). */
export const versionAdoptionSchema = z.object({
  at: z.string(),
  versions: z.record(z.string(), z.number().int()),
});
export type VersionAdoption = z.infer<typeof versionAdoptionSchema>;

/** `GET /admin/releases/adoption`: the samples of the last days, and the deferrals standing now. */
export const releaseAdoptionAnswer = z.object({
  data: z.object({
    samples: z.array(versionAdoptionSchema),
    deferrals: z.array(
      z.object({
        hwid: z.string(),
        /** The customer whose PC it is now (null: released since). */
        username: z.string().nullable(),
        version: z.string(),
        until: z.string(),
        at: z.string(),
      }),
    ),
  }),
});
