import {
  adminUserSchema,
  auditEntrySchema,
  hourlySeriesAnswer,
  listAnswer,
  packagesAnswer,
  releasesAnswer,
} from '@bot/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { fetchPaymentTotals } from '../../admin-payments/index.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const AUDIT_PREVIEW_SIZE = 6;

const dashboardKeys = {
  all: ['admin', 'dashboard'] as const,
  revenue: (period: string) => [...dashboardKeys.all, 'revenue', period] as const,
  users: () => [...dashboardKeys.all, 'users'] as const,
  series: (path: string, days: number) => [...dashboardKeys.all, path, days] as const,
  audit: () => [...dashboardKeys.all, 'audit'] as const,
  onSale: () => [...dashboardKeys.all, 'packages-on-sale'] as const,
  published: () => [...dashboardKeys.all, 'published-releases'] as const,
};
/** The figures refresh on their own while the dashboard stays open. */
const REFRESH_MS = 60_000;

/** Midnight today in the browser's time zone. */
function startOfToday(now = new Date()): Date {
  const start = new Date(now);
  start.setHours(0, 0, 0, 0);
  return start;
}

/** Paid orders (refunded excluded) since `from`: `/admin/payments` totals (can_manageSettings). */
export const revenueQuery = (period: 'today' | 'month') =>
  queryOptions({
    queryKey: dashboardKeys.revenue(period),
    refetchInterval: REFRESH_MS,
    queryFn: () => {
      const from = period === 'today' ? startOfToday() : new Date(Date.now() - 30 * DAY_MS);
      return fetchPaymentTotals(new URLSearchParams({ from: from.toISOString() }));
    },
  });

/** Number of users: the total of `/admin/users` (can_manageUsers). */
export const usersQuery = queryOptions({
  queryKey: dashboardKeys.users(),
  refetchInterval: REFRESH_MS,
  queryFn: async () => {
    const page = await api.get('/admin/users?pageSize=1', {
      schema: listAnswer(adminUserSchema),
      fallback: 'Impossible de compter les utilisateurs.',
    });
    return { total: page.total };
  },
});

/** An hourly series of the last `days` days, from one of the dashboard's chart endpoints. */
function hourlySeries(path: string, days: number, fallback: string) {
  return queryOptions({
    queryKey: dashboardKeys.series(path, days),
    refetchInterval: REFRESH_MS,
    queryFn: async () =>
      (await api.get(`${path}?days=${days}`, { schema: hourlySeriesAnswer, fallback })).data,
  });
}

/** Accounts created per hour (can_manageUsers). */
export const registrationsQuery = hourlySeries(
  '/admin/users/registrations',
  30,
  'Impossible de lire les inscriptions.',
);
/** Money of paid orders per hour, in cents (can_manageSettings). */
export const salesQuery = hourlySeries('/admin/payments/sales', 30, 'Impossible de lire les ventes.');
/** Bots that reported per hour (can_manageMap). */
export const onlineHistoryQuery = hourlySeries(
  '/admin/bots/online-history',
  1,
  'Impossible de lire l’historique des bots en ligne.',
);

/** The latest audit entries (can_manageAudit). */
export const latestAuditQuery = queryOptions({
  queryKey: dashboardKeys.audit(),
  refetchInterval: REFRESH_MS,
  queryFn: async () =>
    (
      await api.get(`/admin/audit?pageSize=${AUDIT_PREVIEW_SIZE}`, {
        schema: listAnswer(auditEntrySchema),
        fallback: "Impossible de lire le journal d'audit.",
      })
    ).data,
});

/** How many packages are on sale: the shop's own list (public). */
export const onSaleQuery = queryOptions({
  queryKey: dashboardKeys.onSale(),
  refetchInterval: REFRESH_MS,
  queryFn: async () =>
    (await api.get('/packages', { schema: packagesAnswer, silent: true, fallback: 'Offres indisponibles.' }))
      .data.length,
});

/** How many builds are published (can_manageSettings, like the releases page). */
export const publishedReleasesQuery = queryOptions({
  queryKey: dashboardKeys.published(),
  refetchInterval: REFRESH_MS,
  queryFn: async () =>
    (
      await api.get('/admin/releases', {
        schema: releasesAnswer,
        silent: true,
        fallback: 'Versions indisponibles.',
      })
    ).data.filter((release) => release.publishedAt !== null).length,
});
