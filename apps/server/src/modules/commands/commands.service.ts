import { type BotCommand, type BotCommandInput, type BotCommandState, botCommandInput } from '@bot/contracts';
import { and, desc, eq, inArray } from 'drizzle-orm';
import { type AppContext, inTransaction, type TxContext } from '../../context.ts';
import { AppError, isAppError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { assertMayReadBotOf } from '../access/index.ts';
import { type AuditActor, writeAudit } from '../audit/index.ts';
import { assertMayManageUser } from '../permissions-admin/index.ts';
import { findUserByHwid, getUserById, lockUser } from '../users/index.ts';
import { listWhitelistedAccountNames } from '../whitelist/index.ts';
import { publishedRouteKinds, routeKindsOf } from '../world/index.ts';
import { type BotCommandRow, botCommands } from './commands.table.ts';

/** Commands the bot has not received yet: what the per-bot cap counts. */
const PENDING_STATES: BotCommandState[] = ['queued', 'sent'];
/** Why a configuration push was cancelled by a newer one. */
const SUPERSEDED = 'remplacée';
const LIST_LIMIT = 50;

/** Who sends a command: the bot's owner, or staff (audited). */
export interface CommandIssuer extends AuditActor {
  id: string;
  username: string;
  staff: boolean;
}

export function toBotCommand(row: BotCommandRow): BotCommand {
  return {
    id: row.id,
    hwid: row.hwid,
    kind: row.kind,
    payload: row.payload,
    state: row.state,
    message: row.message,
    issuer: { type: row.issuedByStaff ? 'staff' : 'owner', username: row.issuerUsername },
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
  };
}

/**
 * After the commit every watcher hears of it; `handOver`: the issuance marked it `sent`, and the
 * node holding the bot's socket emits it (docs/decisions/013-commands-and-history-paths.md).
 */
export function announce(tx: TxContext, row: BotCommandRow, options: { handOver?: true } = {}): void {
  tx.events.emit('botCommand.changed', {
    command: toBotCommand(row),
    userId: row.userId,
    issuerId: row.issuerId,
    ...options,
  });
}

/** The owner's bound PC, or HWID_NOT_BOUND. */
export async function boundHwidOf(ctx: AppContext, userId: string): Promise<string> {
  const user = await getUserById(ctx, userId);
  if (!user.hwid) throw new AppError('HWID_NOT_BOUND');
  return user.hwid;
}

/** Staff who act on bots (and read their journal): from the map, users online, the admin user page. */
export const BOT_STAFF_PERMISSIONS = ['can_manageMap', 'can_manageUsersOnline', 'can_manageUsers'] as const;

/**
 * Whom staff reach through a PC: who has it bound now (staff may not outrank them). In a use case,
 * called inside its transaction so the rank is read as committed (decision 404).
 */
export async function ownerForStaff(ctx: AppContext, hwid: string, actor: { id: string }) {
  const owner = await findUserByHwid(ctx, hwid);
  if (!owner) throw new AppError('PC_OWNER_NOT_FOUND');
  await assertMayManageUser(ctx, { actorId: actor.id, target: owner });
  return owner;
}

/**
 * Sends a command to a PC's bot. Online, it is stored `sent` and emitted after the commit by the
 * node holding its socket, with no transaction of its own; offline, stored `queued` and handed over
 * when it connects, until it expires (docs/decisions/013-commands-and-history-paths.md). Limits: the issuer's rate, the bot's pending
 * cap; a configuration push replaces one not acknowledged yet (cancelled, "remplacée"). Staff
 * commands are audited.
 */
export async function issueBotCommand(
  ctx: AppContext,
  input: { hwid: string; command: BotCommandInput; issuer: CommandIssuer; now?: Date },
): Promise<BotCommand> {
  const command = botCommandInput.parse(input.command);
  const { issuer, hwid } = input;
  return inTransaction(ctx, async (tx) => {
    const owner = issuer.staff ? await ownerForStaff(tx, hwid, issuer) : await getUserById(tx, issuer.id);
    if (!issuer.staff && owner.hwid !== hwid) throw new AppError('HWID_NOT_BOUND');
    await assertTargetsExist(tx, { ownerId: owner.id, command });
    await ctx.limiter.hit('botCommand', issuer.id).catch((error: unknown) => {
      // The generic "too many attempts" would read as a sign-in problem: said for commands.
      if (!isAppError(error) || error.code !== 'RATE_LIMITED') throw error;
      throw new AppError('BOT_COMMAND_RATE_LIMITED', { retryAfter: error.retryAfter });
    });
    // One issuance at a time per owner: the cap and the supersession see every earlier command.
    // Under the lock an unbind also takes, the PC is checked again: it may have been unbound since.
    if ((await lockUser(tx, owner.id)).hwid !== hwid)
      throw issuer.staff ? new AppError('PC_OWNER_NOT_FOUND') : new AppError('HWID_NOT_BOUND');
    const now = input.now ?? new Date();
    if (command.kind === 'configure') {
      const replaced = await tx.db
        .update(botCommands)
        .set({ state: 'cancelled', message: SUPERSEDED, updatedAt: now })
        .where(
          and(
            eq(botCommands.hwid, hwid),
            eq(botCommands.kind, 'configure'),
            inArray(botCommands.state, ['queued', 'sent']),
          ),
        )
        .returning();
      for (const row of replaced) announce(tx, row);
    }
    const pending = await tx.db
      .select({ id: botCommands.id })
      .from(botCommands)
      .where(and(eq(botCommands.hwid, hwid), inArray(botCommands.state, PENDING_STATES)))
      .limit(ctx.config.commands.maxPendingPerBot);
    if (pending.length >= ctx.config.commands.maxPendingPerBot) throw new AppError('BOT_COMMAND_LIMIT');
    // A bot connecting meanwhile finds it `queued`: its node hands it over on the event or at admission.
    const isOnline = (await tx.live.botState(hwid)) !== undefined;
    const [row] = await tx.db
      .insert(botCommands)
      .values({
        id: newId(),
        hwid,
        userId: owner.id,
        kind: command.kind,
        payload: 'payload' in command ? command.payload : {},
        state: isOnline ? 'sent' : 'queued',
        deliveries: isOnline ? 1 : 0,
        sentAt: isOnline ? now : null,
        issuerId: issuer.id,
        issuerUsername: issuer.username,
        issuedByStaff: issuer.staff,
        createdAt: now,
        updatedAt: now,
        expiresAt: new Date(now.getTime() + ctx.config.commands.ttlMs),
      })
      .returning();
    if (!row) throw new AppError('INTERNAL');
    if (issuer.staff) {
      await writeAudit(tx, {
        actor: issuer,
        action: 'bot.command',
        target: { type: 'bot', id: hwid, label: owner.username },
        after: { id: row.id, kind: row.kind, payload: row.payload },
      });
    }
    announce(tx, row, isOnline ? { handOver: true } : {});
    return toBotCommand(row);
  });
}

/** Why the unbind ended a command: not handed over yet, or handed over with no answer yet. */
const UNBOUND_BEFORE_SENT = 'annulée : PC délié';
const UNBOUND_BEFORE_RESULT = 'Le PC a été délié avant que le bot ne réponde.';

/**
 * Ends the commands a PC's owner left waiting when the PC is unbound, inside the unbind's
 * transaction: a command belongs to its owner's time with the PC, and the PC's next owner must not
 * run it (docs/decisions/208-remote-commands.md). One not handed over yet is `cancelled`; one handed
 * over (`sent`, `acknowledged`) may have run, so it is `expired`, saying the PC went first.
 */
export async function endCommandsOfUnboundPc(
  tx: TxContext,
  input: { userId: string; hwid: string; now?: Date },
): Promise<number> {
  const now = input.now ?? new Date();
  const ofThePc = and(eq(botCommands.userId, input.userId), eq(botCommands.hwid, input.hwid));
  const cancelled = await tx.db
    .update(botCommands)
    .set({ state: 'cancelled', message: UNBOUND_BEFORE_SENT, updatedAt: now })
    .where(and(ofThePc, eq(botCommands.state, 'queued')))
    .returning();
  const expired = await tx.db
    .update(botCommands)
    .set({ state: 'expired', message: UNBOUND_BEFORE_RESULT, updatedAt: now })
    .where(and(ofThePc, inArray(botCommands.state, ['sent', 'acknowledged'])))
    .returning();
  for (const row of [...cancelled, ...expired]) announce(tx, row);
  return cancelled.length + expired.length;
}

/**
 * What a command names must exist: a game account on the owner's whitelist (the only ones their bot
 * may drive), a published route of a kind their package allows. The agent would refuse the rest,
 * after a round trip.
 */
async function assertTargetsExist(
  ctx: AppContext,
  input: { ownerId: string; command: ReturnType<typeof botCommandInput.parse> },
) {
  const { command } = input;
  if (command.kind !== 'stopAccount' && command.kind !== 'configure') return;
  const accounts = new Set(await listWhitelistedAccountNames(ctx, input.ownerId));
  const named =
    command.kind === 'stopAccount'
      ? [command.payload.account]
      : command.payload.accounts.map((entry) => entry.name);
  const unknown = named.find((name) => !accounts.has(name));
  if (unknown !== undefined)
    throw new AppError('WHITELIST_ACCOUNT_UNKNOWN', { details: { account: unknown } });
  if (command.kind !== 'configure') return;
  const routes = [command.payload.routeId, ...command.payload.accounts.map((entry) => entry.routeId)].filter(
    (id): id is string => typeof id === 'string',
  );
  const published = await publishedRouteKinds(ctx, routes);
  if (routes.some((id) => !published.has(id))) throw new AppError('ITINERARY_UNKNOWN');
  // The bot fetches only the kinds its owner's package allows (`/bot/routes`).
  const allowed = await routeKindsOf(ctx, input.ownerId);
  if ([...published.values()].some((kind) => !allowed.includes(kind)))
    throw new AppError('ITINERARY_NOT_IN_PACKAGE');
}

/**
 * Cancels a command the agent has not been handed yet (`queued`); one already sent may be running.
 * An owner cancels their own commands (staff ones are staff's to cancel); staff cancellations are
 * audited.
 */
export async function cancelBotCommand(
  ctx: AppContext,
  input: { hwid: string; id: string; issuer: CommandIssuer; now?: Date },
): Promise<BotCommand> {
  const { issuer, hwid } = input;
  return inTransaction(ctx, async (tx) => {
    // Inside, through `tx`: a rank withdrawn meanwhile is seen (decision 009).
    const owner = issuer.staff ? await ownerForStaff(tx, hwid, issuer) : undefined;
    const [current] = await tx.db
      .select()
      .from(botCommands)
      .where(and(eq(botCommands.id, input.id), eq(botCommands.hwid, hwid)))
      .for('update');
    if (!current || (!issuer.staff && current.userId !== issuer.id))
      throw new AppError('BOT_COMMAND_NOT_FOUND');
    if (!issuer.staff && current.issuedByStaff) throw new AppError('BOT_COMMAND_STAFF_ONLY');
    if (current.state !== 'queued') throw new AppError('BOT_COMMAND_NOT_CANCELLABLE');
    const [row] = await tx.db
      .update(botCommands)
      .set({
        state: 'cancelled',
        message: `annulée par ${issuer.staff ? 'l’équipe' : 'le propriétaire'}`,
        updatedAt: input.now ?? new Date(),
      })
      .where(eq(botCommands.id, current.id))
      .returning();
    if (!row) throw new AppError('INTERNAL');
    if (issuer.staff) {
      await writeAudit(tx, {
        actor: issuer,
        action: 'bot.command_cancel',
        target: { type: 'bot', id: hwid, label: owner?.username },
        // The command named after, so the entry reads "Type : Pause · État : … → Annulée".
        before: { state: current.state },
        after: { id: row.id, kind: row.kind, state: row.state },
      });
    }
    announce(tx, row);
    // A customer reads staff unnamed, here too.
    return issuer.staff ? toBotCommand(row) : maskStaff(toBotCommand(row));
  });
}

/**
 * A PC's latest commands, newest first. `ownerId`: a customer reads them (their own time with the
 * PC only, staff not named).
 */
export async function listBotCommands(
  ctx: AppContext,
  input: { hwid: string; ownerId?: string; since?: Date },
): Promise<BotCommand[]> {
  const rows = await ctx.db
    .select()
    .from(botCommands)
    .where(
      and(
        eq(botCommands.hwid, input.hwid),
        input.ownerId ? eq(botCommands.userId, input.ownerId) : undefined,
      ),
    )
    .orderBy(desc(botCommands.createdAt))
    .limit(LIST_LIMIT);
  const commands = rows.map(toBotCommand);
  return input.ownerId ? commands.map(maskStaff) : commands;
}

/**
 * The command list as staff read it: refused (FORBIDDEN) when the PC's owner outranks the reader
 * (docs/decisions/404, reads); a PC bound to nobody is guarded by whoever sent it its last command.
 */
export async function listBotCommandsForStaff(
  ctx: AppContext,
  input: { hwid: string; readerId: string },
): Promise<BotCommand[]> {
  const [last] = await ctx.db
    .select({ userId: botCommands.userId })
    .from(botCommands)
    .where(eq(botCommands.hwid, input.hwid))
    .orderBy(desc(botCommands.createdAt))
    .limit(1);
  await assertMayReadBotOf(ctx, { actorId: input.readerId, hwid: input.hwid, formerOwnerId: last?.userId });
  return listBotCommands(ctx, { hwid: input.hwid });
}

/** What a customer reads of a command: staff are not named. */
export function maskStaff(command: BotCommand): BotCommand {
  return command.issuer.type === 'staff'
    ? { ...command, issuer: { type: 'staff', username: null } }
    : command;
}
