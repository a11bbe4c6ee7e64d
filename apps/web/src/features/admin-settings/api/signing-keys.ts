import { type SigningKey, type SigningKeyPurpose, signingKeyAnswer, signingKeysAnswer } from '@bot/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

export const signingKeysKeys = { all: ['admin-signing-keys'] as const };

/** The lease signing keys (docs/licensing.md): never their private part. */
export const signingKeysQuery = queryOptions({
  queryKey: signingKeysKeys.all,
  queryFn: async () =>
    (
      await api.get('/admin/signing-keys', {
        schema: signingKeysAnswer,
        fallback: 'Impossible de charger les clés de signature.',
      })
    ).data,
});

export async function rotateSigningKey(purpose: SigningKeyPurpose): Promise<SigningKey> {
  return (
    await api.post(
      '/admin/signing-keys/rotate',
      { purpose },
      {
        schema: signingKeyAnswer,
        fallback: 'Le changement de clé a échoué.',
      },
    )
  ).data;
}

export async function revokeSigningKey(kid: string): Promise<SigningKey> {
  return (
    await api.post(`/admin/signing-keys/${encodeURIComponent(kid)}/revoke`, undefined, {
      schema: signingKeyAnswer,
      fallback: 'La révocation de la clé a échoué.',
    })
  ).data;
}
