import {
  dataAnswer,
  RELEASE_PART_BYTES,
  type Release,
  type ReleaseInput,
  type ReleaseRolloutInput,
  releaseAdoptionAnswer,
  releasePartCount,
  releaseSchema,
  releasesAnswer,
} from '@bot/contracts';
import { api } from '../../../lib/api.ts';

const RELEASES_ENDPOINT = '/admin/releases';
export const releaseKeys = { all: ['admin', 'releases'] as const };
const releaseAnswer = dataAnswer(releaseSchema);

export async function fetchReleases(): Promise<Release[]> {
  return (
    // Every release on one page (the most an admin list gives): staff compare them side by side.
    (
      await api.get(`${RELEASES_ENDPOINT}?pageSize=200`, {
        schema: releasesAnswer,
        fallback: 'Impossible de charger les versions.',
      })
    ).data
  );
}

export function deleteRelease(id: string) {
  return api.delete(`${RELEASES_ENDPOINT}/${id}`, { fallback: 'Retrait impossible.' });
}

async function sha256Of(file: Blob): Promise<string> {
  // WebCrypto exists on HTTPS pages and on localhost only.
  if (!globalThis.crypto?.subtle)
    throw new Error('Le calcul de l’empreinte SHA-256 demande une page en HTTPS.');
  const digest = await crypto.subtle.digest('SHA-256', await file.arrayBuffer());
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** A part that fails is sent again (a network blip does not restart the whole upload). */
const PART_ATTEMPTS = 3;

async function sendPart(id: string, index: number, part: Blob): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await api.put(`${RELEASES_ENDPOINT}/${id}/parts/${index}`, part, {
        silent: attempt < PART_ATTEMPTS,
        fallback: 'Envoi du fichier interrompu.',
      });
      return;
    } catch (error) {
      if (attempt >= PART_ATTEMPTS) throw error;
    }
  }
}

/**
 * Publishes a build: a draft, the file in parts of `RELEASE_PART_BYTES`, then the SHA-256 computed
 * here, which the server checks against what it stored. `onProgress` gets 0..1. After a failure the
 * caller passes the draft back (`draftId`, told by `onDraft`): parts are sent again into it.
 */
export async function publishBuild(
  input: ReleaseInput & { file: File },
  events: { onProgress: (fraction: number) => void; onDraft: (id: string) => void },
  draftId?: string,
): Promise<Release> {
  const { file, ...fields } = input;
  const sha256 = await sha256Of(file);
  const id =
    draftId ??
    (
      await api.post(
        RELEASES_ENDPOINT,
        // The draft declares its size: the server refuses parts past its end.
        { ...fields, size: file.size },
        { schema: releaseAnswer, fallback: 'Création impossible.' },
      )
    ).data.id;
  events.onDraft(id);
  const parts = releasePartCount(file.size);
  for (let index = 0; index < parts; index += 1) {
    await sendPart(id, index, file.slice(index * RELEASE_PART_BYTES, (index + 1) * RELEASE_PART_BYTES));
    events.onProgress((index + 1) / parts);
  }
  return (
    await api.post(
      `${RELEASES_ENDPOINT}/${id}/publish`,
      { parts, sha256 },
      { schema: releaseAnswer, fallback: 'Publication impossible.' },
    )
  ).data;
}

/** Raise or lower the share, set the steps, pause or resume a rollout (decision 910). */
export async function changeRollout(id: string, input: ReleaseRolloutInput): Promise<Release> {
  return (
    await api.put(`${RELEASES_ENDPOINT}/${id}/rollout`, input, {
      schema: releaseAnswer,
      fallback: 'Modification du déploiement impossible.',
    })
  ).data;
}

/** Withdraws a build: no longer offered, its agents go back to the previous one. */
export async function yankRelease(id: string, reason: string): Promise<Release> {
  return (
    await api.post(
      `${RELEASES_ENDPOINT}/${id}/yank`,
      { reason },
      {
        schema: releaseAnswer,
        fallback: 'Retrait impossible.',
      },
    )
  ).data;
}

/** Bots online per version over the last days, and the updates put off now. */
export const adoptionQuery = {
  queryKey: [...releaseKeys.all, 'adoption'] as const,
  queryFn: async () =>
    (
      await api.get(`${RELEASES_ENDPOINT}/adoption`, {
        schema: releaseAdoptionAnswer,
        fallback: 'Adoption illisible.',
      })
    ).data,
  refetchInterval: 60_000,
};
