import {
  type AdminSession,
  type AdminUserDetail,
  adminUserDetailSchema,
  dataAnswer,
  type GrantInput,
  listAnswer,
  myBotAnswer,
  ordersAnswer,
  type PermissionGrant,
  userPcSchema,
} from '@bot/contracts';
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../lib/api.ts';

export const adminUserKeys = {
  all: ['admin-users'] as const,
  detail: (id: string) => ['admin-users', id] as const,
  sessions: (id: string) => ['admin-users', id, 'sessions'] as const,
  bot: (id: string) => ['admin-users', id, 'bot'] as const,
  pcs: (id: string) => ['admin-users', id, 'pcs'] as const,
  orders: (id: string) => ['admin-users', id, 'orders'] as const,
  whitelist: (id: string) => ['admin-users', id, 'whitelist'] as const,
  roleOptions: ['admin-users', 'role-options'] as const,
};

const detailAnswer = dataAnswer(adminUserDetailSchema);
const base = (id: string) => `/admin/users/${encodeURIComponent(id)}`;

export const adminUserQuery = (id: string) =>
  queryOptions({
    queryKey: adminUserKeys.detail(id),
    queryFn: async () =>
      (await api.get(base(id), { schema: detailAnswer, fallback: "Impossible de charger l'utilisateur." }))
        .data,
  });

export const userSessionsQuery = (id: string) =>
  queryOptions({
    queryKey: adminUserKeys.sessions(id),
    queryFn: async () => (await api.get<{ data: AdminSession[] }>(`${base(id)}/sessions?pageSize=200`)).data,
  });

export const userBotQuery = (id: string) =>
  queryOptions({
    queryKey: adminUserKeys.bot(id),
    queryFn: async () => (await api.get(`${base(id)}/bot`, { schema: myBotAnswer, silent: true })).data,
    refetchInterval: 10_000,
  });

/** Every PC the user has had, the bound one first (its history survives a reset). */
export const userPcsQuery = (id: string) =>
  queryOptions({
    queryKey: adminUserKeys.pcs(id),
    queryFn: async () =>
      (await api.get(`${base(id)}/pcs?pageSize=200`, { schema: listAnswer(userPcSchema), silent: true }))
        .data,
  });

export const userOrdersQuery = (id: string) =>
  queryOptions({
    queryKey: adminUserKeys.orders(id),
    queryFn: async () =>
      (await api.get(`${base(id)}/orders?pageSize=200`, { schema: ordersAnswer, silent: true })).data,
  });

export const userWhitelistQuery = (id: string) =>
  queryOptions({
    queryKey: adminUserKeys.whitelist(id),
    queryFn: async () =>
      (await api.get<{ data: string[] }>(`${base(id)}/whitelist?pageSize=200`, { silent: true })).data,
  });

export const roleOptionsQuery = queryOptions({
  queryKey: adminUserKeys.roleOptions,
  queryFn: async () =>
    (
      await api.get('/admin/users/role-options', {
        schema: dataAnswer(z.array(z.object({ id: z.string(), name: z.string() }))),
      })
    ).data,
});

type Detail = Promise<AdminUserDetail>;
const detail = async (promise: Promise<{ data: AdminUserDetail }>): Detail => (await promise).data;

export const activateUser = (id: string) =>
  detail(api.post(`${base(id)}/activate`, {}, { schema: detailAnswer, fallback: 'Activation échouée.' }));
export const resendActivation = (id: string) =>
  api.post(`${base(id)}/resend-activation`, {}, { fallback: 'Ré-envoi de confirmation échoué.' });
export const banUser = (id: string, reason: string) =>
  detail(api.post(`${base(id)}/ban`, { reason }, { schema: detailAnswer, fallback: 'Bannissement échoué.' }));
export const unbanUser = (id: string) =>
  detail(
    api.post(`${base(id)}/unban`, {}, { schema: detailAnswer, fallback: 'Levée du bannissement échouée.' }),
  );
export const setUserRoles = (id: string, roleIds: string[]) =>
  detail(
    api.put(
      `${base(id)}/roles`,
      { roleIds },
      { schema: detailAnswer, fallback: 'Mise à jour des rôles échouée.' },
    ),
  );
export const setUserDiscord = (id: string, discordId: string | null) =>
  detail(
    api.put(
      `${base(id)}/discord`,
      { discordId },
      { schema: detailAnswer, fallback: 'Mise à jour de Discord échouée.' },
    ),
  );
export const resetUserHwid = (id: string) =>
  detail(
    api.delete(`${base(id)}/hwid`, { schema: detailAnswer, fallback: 'Réinitialisation du HWID échouée.' }),
  );
export const resetUserTwoFactor = (id: string) =>
  detail(
    api.delete(`${base(id)}/two-factor`, {
      schema: detailAnswer,
      fallback: 'Réinitialisation de la double authentification échouée.',
    }),
  );
export const createUserGrant = (id: string, input: GrantInput) =>
  api.post<{ data: PermissionGrant }>(`${base(id)}/grants`, input, {
    fallback: 'Attribution de la permission échouée.',
  });
export const updateUserGrant = (id: string, grantId: string, expiresAt: string | null) =>
  api.request<{ data: PermissionGrant }>('PATCH', `${base(id)}/grants/${grantId}`, {
    body: { expiresAt },
    fallback: 'Modification de la date de fin échouée.',
  });
export const deleteUserGrant = (id: string, grantId: string) =>
  api.delete(`${base(id)}/grants/${grantId}`, { fallback: 'Retrait de la permission échoué.' });
export const revokeUserSession = (id: string, sessionId: string) =>
  api.delete<{ revoked: number }>(`${base(id)}/sessions/${sessionId}`, { fallback: 'Révocation échouée.' });
export const revokeAllUserSessions = (id: string) =>
  api.delete<{ revoked: number }>(`${base(id)}/sessions`, { fallback: 'Révocation échouée.' });
