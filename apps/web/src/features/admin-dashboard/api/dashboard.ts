import { adminUserSchema, auditEntrySchema, listAnswer } from '@bot/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { fetchPaymentTotals } from '../../admin-payments/api/payments.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Users read to count the recent registrations (newest first); more than this shows as "200+". */
const RECENT_USERS_WINDOW = 200;
const AUDIT_PREVIEW_SIZE = 6;

const dashboardKey = ['admin', 'dashboard'] as const;
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
    queryKey: [...dashboardKey, 'revenue', period],
    refetchInterval: REFRESH_MS,
    queryFn: () => {
      const from = period === 'today' ? startOfToday() : new Date(Date.now() - 30 * DAY_MS);
      return fetchPaymentTotals(new URLSearchParams({ from: from.toISOString() }));
    },
  });

/**
 * Number of users and of those registered in the last 7 days: `/admin/users` (can_manageUsers) is sorted
 * newest first by default, so the first page holds every recent registration up to its size.
 */
export const usersQuery = queryOptions({
  queryKey: [...dashboardKey, 'users'],
  refetchInterval: REFRESH_MS,
  queryFn: async () => {
    const params = new URLSearchParams({ pageSize: String(RECENT_USERS_WINDOW), sort: '-createdAt' });
    const page = await api.get(`/admin/users?${params.toString()}`, {
      schema: listAnswer(adminUserSchema),
      fallback: 'Impossible de compter les utilisateurs.',
    });
    const since = Date.now() - 7 * DAY_MS;
    const recent = page.data.filter((user) => new Date(user.createdAt).getTime() >= since).length;
    return {
      total: page.total,
      recent,
      /** Every user read was recent and more exist: the real number is at least `recent`. */
      isRecentCapped: recent === page.data.length && page.total > page.data.length,
    };
  },
});

/** The latest audit entries (can_manageAudit). */
export const latestAuditQuery = queryOptions({
  queryKey: [...dashboardKey, 'audit'],
  refetchInterval: REFRESH_MS,
  queryFn: async () =>
    (
      await api.get(`/admin/audit?pageSize=${AUDIT_PREVIEW_SIZE}`, {
        schema: listAnswer(auditEntrySchema),
        fallback: "Impossible de lire le journal d'audit.",
      })
    ).data,
});
