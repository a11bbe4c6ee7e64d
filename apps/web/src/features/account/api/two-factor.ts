import {
  recoveryCodesAnswer,
  type TwoFactorEnableInput,
  type TwoFactorReauthInput,
  twoFactorSetupAnswer,
  twoFactorStatusAnswer,
} from '@bot/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

export const twoFactorKeys = { status: ['me', 'two-factor'] as const };

async function fetchTwoFactorStatus(signal?: AbortSignal) {
  return (
    await api.get('/me/two-factor', {
      schema: twoFactorStatusAnswer,
      fallback: 'État de la double authentification indisponible.',
      signal,
    })
  ).data;
}

export const twoFactorStatusQuery = queryOptions({
  queryKey: twoFactorKeys.status,
  queryFn: ({ signal }) => fetchTwoFactorStatus(signal),
});

/** A new secret and its QR code; nothing changes until `enableTwoFactor` gets a first code. */
export async function startTwoFactorSetup() {
  return (
    await api.post(
      '/me/two-factor/setup',
      {},
      { schema: twoFactorSetupAnswer, fallback: 'Activation impossible.' },
    )
  ).data;
}

export async function enableTwoFactor(input: TwoFactorEnableInput) {
  return (
    await api.post('/me/two-factor/enable', input, {
      schema: recoveryCodesAnswer,
      fallback: 'Activation impossible.',
    })
  ).data.recoveryCodes;
}

export function disableTwoFactor(input: TwoFactorReauthInput) {
  return api.post('/me/two-factor/disable', input, { fallback: 'Désactivation impossible.' });
}

export async function renewRecoveryCodes(input: TwoFactorReauthInput) {
  return (
    await api.post('/me/two-factor/recovery-codes', input, {
      schema: recoveryCodesAnswer,
      fallback: 'Renouvellement des codes impossible.',
    })
  ).data.recoveryCodes;
}
