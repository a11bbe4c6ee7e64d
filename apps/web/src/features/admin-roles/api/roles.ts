import { dataAnswer, type RoleInput, type RoleUpdateInput, roleDetailSchema } from '@bot/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

const detailAnswer = dataAnswer(roleDetailSchema);

const roleKeys = { detail: (id: string) => ['admin', 'roles', id] as const };

export const roleQuery = (id: string) =>
  queryOptions({
    queryKey: roleKeys.detail(id),
    queryFn: async () => (await api.get(`/admin/roles/${id}`, { schema: detailAnswer })).data,
  });

export async function createRole(input: RoleInput) {
  return (
    await api.post('/admin/roles', input, { schema: detailAnswer, fallback: 'Création du rôle échouée.' })
  ).data;
}
export async function updateRole(id: string, input: RoleUpdateInput) {
  return (
    await api.put(`/admin/roles/${id}`, input, {
      schema: detailAnswer,
      fallback: 'Modification du rôle échouée.',
    })
  ).data;
}
export function deleteRole(id: string) {
  return api.delete(`/admin/roles/${id}`, { fallback: 'Suppression du rôle échouée.' });
}
