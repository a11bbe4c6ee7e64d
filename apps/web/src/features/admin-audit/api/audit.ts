import { dataAnswer } from '@bot/contracts';
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../lib/api.ts';

const auditKeys = { actions: ['admin', 'audit', 'actions'] as const };

export const auditActionsQuery = queryOptions({
  queryKey: auditKeys.actions,
  queryFn: async () =>
    (await api.get('/admin/audit/actions', { schema: dataAnswer(z.array(z.string())) })).data,
  staleTime: 60_000,
});
