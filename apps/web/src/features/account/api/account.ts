import {
  botKeyAnswer,
  type ChangePasswordInput,
  hwidResetAllowanceAnswer,
  hwidResetAnswer,
  mySessionsAnswer,
  revokedAnswer,
  type User,
  userInfoAnswer,
} from '@bot/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

export const accountKeys = {
  botKey: ['me', 'bot-key'] as const,
  sessions: ['me', 'sessions'] as const,
  hwidResets: ['me', 'hwid-resets'] as const,
};

/** PUT /me/password: the other sessions are revoked by the server. */
export function changePassword(input: ChangePasswordInput) {
  return api.put('/me/password', input, { fallback: 'Le changement de mot de passe a échoué.' });
}

/** PUT /me/discord: `null` clears it. Answers the updated user when the server sends it. */
export async function updateDiscord(discordId: string | null): Promise<User | undefined> {
  const answer = await api.put<unknown>(
    '/me/discord',
    { discordId },
    { fallback: 'Mise à jour de Discord échouée.' },
  );
  const parsed = userInfoAnswer.safeParse(answer);
  return parsed.success ? parsed.data.data : undefined;
}

/** DELETE /me/hwid: unbinds the bot PC; the cooldown comes from the site settings. */
export function resetHwid() {
  return api.delete('/me/hwid', { schema: hwidResetAnswer, fallback: 'Impossible de délier votre PC.' });
}

/** GET /me/hwid-resets: the self-service unbinds left over 30 days, shown before one is used. */
export const hwidResetsQuery = queryOptions({
  queryKey: accountKeys.hwidResets,
  queryFn: async ({ signal }) =>
    (
      await api.get('/me/hwid-resets', {
        schema: hwidResetAllowanceAnswer,
        fallback: 'Déliaisons restantes indisponibles.',
        signal,
      })
    ).data,
});

async function fetchBotKey() {
  return (await api.get('/me/bot-key', { schema: botKeyAnswer, fallback: 'Clé d’accès indisponible.' })).data
    .accessKey;
}

export async function rotateBotKey() {
  return (
    await api.post('/me/bot-key', {}, { schema: botKeyAnswer, fallback: 'Régénération de la clé échouée.' })
  ).data.accessKey;
}

export const botKeyQuery = queryOptions({
  queryKey: accountKeys.botKey,
  queryFn: fetchBotKey,
  staleTime: Infinity,
});

/** GET /me/sessions: the user's own open sessions, the current one marked. */
export const mySessionsQuery = queryOptions({
  queryKey: accountKeys.sessions,
  queryFn: async ({ signal }) =>
    (await api.get('/me/sessions', { schema: mySessionsAnswer, fallback: 'Sessions indisponibles.', signal }))
      .data,
});

/** DELETE /me/sessions/:id (one session) or /me/sessions (every other one). */
export async function revokeMySessions(sessionId?: string): Promise<number> {
  const path = sessionId ? `/me/sessions/${sessionId}` : '/me/sessions';
  return (await api.delete(path, { schema: revokedAnswer, fallback: 'La déconnexion a échoué.' })).revoked;
}
