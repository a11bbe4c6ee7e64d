import type { WebRoute } from '@bot/contracts';
import { type LoaderFunctionArgs, redirect } from 'react-router';
import { isApiError } from '../../lib/api-error.ts';
import { isConnected, useAuthStore } from '../../lib/auth-store.ts';
import { notifyError, notifyInfo } from '../../lib/notify.ts';
import { checkPermissions } from './check-permission.ts';
import { decideAfterCheck, decideBeforeCheck } from './guard-decisions.ts';

/** A route loader enforcing the route table's guard before the page (or its lazy chunk) renders. */
export function guardLoader(route: Pick<WebRoute, 'guard' | 'permissions' | 'layout'>) {
  return async ({ request }: LoaderFunctionArgs) => {
    const url = new URL(request.url);
    const step = decideBeforeCheck(
      route,
      { isConnected: isConnected(useAuthStore.getState()) },
      url.pathname + url.search,
    );
    if (step.kind === 'allow') return null;
    if (step.kind === 'redirect') throw redirect(step.to);

    let allowed = false;
    try {
      allowed = await checkPermissions(step.permissions, request.signal);
    } catch (error) {
      // The API client has already logged out and shown the message on a 401.
      if (isApiError(error) && error.status === 401) throw redirect('/login');
      if (request.signal.aborted) return null;
    }
    const outcome = decideAfterCheck(route, allowed);
    if (outcome.kind === 'redirect') {
      if (outcome.message) (outcome.isInformation ? notifyInfo : notifyError)(outcome.message);
      throw redirect(outcome.to);
    }
    return null;
  };
}
