import {
  type PackageInput,
  type PackageUpdateInput,
  packageAnswer,
  packageListAnswer,
  packagesAnswer,
} from '@bot/contracts';
import { api } from '../../../lib/api.ts';

export const PACKAGES_ENDPOINT = '/admin/packages';

export async function createPackage(input: PackageInput) {
  return (
    await api.post(PACKAGES_ENDPOINT, input, { schema: packageAnswer, fallback: 'Création impossible.' })
  ).data;
}

export async function updatePackage(id: string, input: PackageUpdateInput) {
  return (
    await api.request('PATCH', `${PACKAGES_ENDPOINT}/${id}`, {
      body: input,
      schema: packageAnswer,
      fallback: 'Modification impossible.',
    })
  ).data;
}

/** Every package in the shop's order (few of them: one page). */
export async function fetchAllPackages() {
  return (
    await api.get(`${PACKAGES_ENDPOINT}?pageSize=200&sort=sortOrder`, {
      schema: packageListAnswer,
      fallback: 'Impossible de charger les offres.',
    })
  ).data;
}

export async function reorderPackages(ids: string[]) {
  return (
    await api.post(
      `${PACKAGES_ENDPOINT}/reorder`,
      { ids },
      { schema: packagesAnswer, fallback: 'Réordonnancement impossible.' },
    )
  ).data;
}
