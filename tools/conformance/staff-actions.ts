import { createHash } from 'node:crypto';
import {
  type BotCommand,
  type BotLogLines,
  type Release,
  type SigningKey,
  SOCKET_PATH,
} from '@bot/contracts';
import { io } from 'socket.io-client';
import { type ConformanceBench, type KitOwner, waitUntil } from './bench.ts';

/**
 * What staff and owners do to a bot during the kit's scenarios, through the platform's API and
 * sockets as the web app does (the admin map's commands, the keys card, the settings, the releases
 * page, the bot's journal).
 */

/** Staff send a command (`POST /admin/bots/:hwid/commands`) and wait for it to reach `state`. */
export async function commandReaches(
  bench: ConformanceBench,
  hwid: string,
  kind: 'pause' | 'resume',
  state: BotCommand['state'],
): Promise<BotCommand> {
  const { call, staff } = bench;
  const sent = await call<{ data: BotCommand }>(
    'POST',
    `/admin/bots/${hwid}/commands`,
    { kind },
    staff.token,
  );
  if (sent.status !== 201)
    throw new Error(`commande refusée par la plateforme : ${JSON.stringify(sent.body)}`);
  let last = sent.body.data;
  await waitUntil(async () => {
    const list = await call<{ data: BotCommand[] }>(
      'GET',
      `/admin/bots/${hwid}/commands`,
      undefined,
      staff.token,
    );
    last = list.body.data.find((command) => command.id === sent.body.data.id) ?? last;
    return last.state === state;
  }, `la commande « ${kind} » passe à « ${state} » (elle est « ${last.state} »)`);
  return last;
}

/** Opens the bot's journal as its owner; answers the agent's lines received so far, and a close. */
export async function openJournal(bench: ConformanceBench, owner: KitOwner) {
  const lines: BotLogLines['lines'] = [];
  const socket = io(bench.server.url, { path: SOCKET_PATH, transports: ['websocket'], reconnection: false });
  socket.on('bot_log', (batch: BotLogLines) => lines.push(...batch.lines));
  const answer = await socket
    .timeout(5_000)
    .emitWithAck('authenticate', { type: 'log', token: owner.token, hwid: owner.hwid });
  if (!answer.ok) throw new Error(`journal refusé : ${JSON.stringify(answer)}`);
  return { lines, close: () => void socket.disconnect() };
}

/** Revokes the lease key in service, as the keys card's "Révoquer" does; answers its kid. */
export async function revokeLeaseKey(bench: ConformanceBench): Promise<string> {
  const { call, staff } = bench;
  const keys = await call<{ data: SigningKey[] }>('GET', '/admin/signing-keys', undefined, staff.token);
  const current = keys.body.data.find((key) => key.purpose === 'lease' && key.state === 'current');
  if (!current) throw new Error('aucune clé de bail en service');
  const revoked = await call('POST', `/admin/signing-keys/${current.kid}/revoke`, {}, staff.token);
  if (revoked.status !== 200) throw new Error(`révocation refusée : ${JSON.stringify(revoked.body)}`);
  return current.kid;
}

/** Sets `minBotVersion` (the staff settings page). */
export async function setMinimumVersion(bench: ConformanceBench, version: string): Promise<void> {
  const { call, staff } = bench;
  const changed = await call('PUT', '/admin/settings', { minBotVersion: version }, staff.token);
  if (changed.status !== 200) throw new Error(`réglage refusé : ${JSON.stringify(changed.body)}`);
}

/** Creates, uploads and publishes a build to every PC at once (the releases page's steps). */
export async function publishBuild(bench: ConformanceBench, version: string): Promise<Release> {
  const { call, staff, server } = bench;
  await call('PUT', '/admin/settings', { releaseRolloutPercent: 100 }, staff.token);
  const bytes = Buffer.from(`conformance build ${version}`);
  const draft = await call<{ data: Release }>(
    'POST',
    '/admin/releases',
    {
      version,
      channel: 'stable',
      notes: 'Kit de conformité',
      fileName: `bot-${version}.zip`,
      size: bytes.length,
    },
    staff.token,
  );
  if (draft.status !== 201) throw new Error(`brouillon refusé : ${JSON.stringify(draft.body)}`);
  const part = await fetch(`${server.api}/admin/releases/${draft.body.data.id}/parts/0`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${staff.token}`, 'content-type': 'application/octet-stream' },
    body: bytes,
  });
  if (part.status !== 204) throw new Error(`envoi du fichier refusé (HTTP ${part.status})`);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const published = await call<{ data: Release }>(
    'POST',
    `/admin/releases/${draft.body.data.id}/publish`,
    { parts: 1, sha256 },
    staff.token,
  );
  if (published.status !== 200) throw new Error(`publication refusée : ${JSON.stringify(published.body)}`);
  return published.body.data;
}

/** Withdraws a build (`POST /admin/releases/:id/yank`): agents running it are told where to go back. */
export async function withdrawBuild(bench: ConformanceBench, release: Release): Promise<void> {
  const { call, staff } = bench;
  const yanked = await call(
    'POST',
    `/admin/releases/${release.id}/yank`,
    { reason: 'Kit de conformité' },
    staff.token,
  );
  if (yanked.status !== 200) throw new Error(`retrait refusé : ${JSON.stringify(yanked.body)}`);
}

/** How many times a build was downloaded (the releases page's counter). */
export async function downloadsOf(bench: ConformanceBench, release: Release): Promise<number> {
  const { call, staff } = bench;
  const list = await call<{ data: Release[] }>('GET', '/admin/releases?pageSize=100', undefined, staff.token);
  return list.body.data.find((entry) => entry.id === release.id)?.downloads ?? 0;
}

/** The owner takes the agent's game account off the whitelist (`DELETE /me/whitelist/:id`). */
export async function unlistAccount(bench: ConformanceBench, owner: KitOwner): Promise<void> {
  const listed = await bench.call<{ data: { id: string; name: string }[] }>(
    'GET',
    '/me/whitelist',
    undefined,
    owner.token,
  );
  const entry = listed.body.data.find((kept) => kept.name === owner.account);
  const removed = await bench.call('DELETE', `/me/whitelist/${entry?.id}`, undefined, owner.token);
  if (removed.status !== 204)
    throw new Error(`retrait de la liste blanche refusé : ${JSON.stringify(removed.body)}`);
}
