import {
  dataAnswer,
  listAnswer,
  type Permission,
  type PermissionGrant,
  permissionDetailSchema,
  permissionSummarySchema,
} from '@bot/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

export const permissionKeys = {
  all: ['admin-permissions'] as const,
  detail: (name: Permission) => ['admin-permissions', name] as const,
};

export const permissionsQuery = queryOptions({
  queryKey: permissionKeys.all,
  queryFn: async () =>
    (
      await api.get('/admin/permissions', {
        schema: listAnswer(permissionSummarySchema),
        fallback: 'Impossible de charger les permissions.',
      })
    ).data,
});

export const permissionQuery = (name: Permission) =>
  queryOptions({
    queryKey: permissionKeys.detail(name),
    queryFn: async () =>
      (await api.get(`/admin/permissions/${name}`, { schema: dataAnswer(permissionDetailSchema) })).data,
  });

export function grantPermissionTo(name: Permission, input: { username: string; expiresAt: string | null }) {
  return api.post<{ data: PermissionGrant }>(`/admin/permissions/${name}/grants`, input, {
    fallback: 'Attribution de la permission échouée.',
  });
}
export function updateGrantEnd(grantId: string, expiresAt: string | null) {
  return api.request<{ data: PermissionGrant }>('PATCH', `/admin/permissions/grants/${grantId}`, {
    body: { expiresAt },
    fallback: 'Modification de la date de fin échouée.',
  });
}
export function removeGrant(grantId: string) {
  return api.delete(`/admin/permissions/grants/${grantId}`, { fallback: 'Retrait de la permission échoué.' });
}
