import { keySetStatusAnswer, type SigningKey, signingKeyAnswer, signingKeysAnswer } from '@bot/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

export const signingKeysKeys = {
  all: ['admin-signing-keys'] as const,
  keySet: ['admin-signing-keys', 'key-set'] as const,
};

/** The signing keys (docs/licensing.md): never their private part. */
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

/** The key set the offline root signed, its expiry and the command that rotates it (decision 912). */
export const keySetQuery = queryOptions({
  queryKey: signingKeysKeys.keySet,
  queryFn: async () =>
    (
      await api.get('/admin/key-set', {
        schema: keySetStatusAnswer,
        fallback: 'Impossible de charger le jeu de clés.',
      })
    ).data,
});

export async function revokeSigningKey(kid: string): Promise<SigningKey> {
  return (
    await api.post(`/admin/signing-keys/${encodeURIComponent(kid)}/revoke`, undefined, {
      schema: signingKeyAnswer,
      fallback: 'La révocation de la clé a échoué.',
    })
  ).data;
}
