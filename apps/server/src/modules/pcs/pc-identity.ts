import {
  HWID_COMPONENT_LABELS,
  HWID_COMPONENTS,
  type HwidComponent,
  type HwidComponents,
  type HwidMatchPolicy,
  type HwidResetAllowance,
} from '@bot/contracts';
import { eq } from 'drizzle-orm';
import { type AppContext, inTransaction, type TxContext } from '../../context.ts';
import { AppError, isAppError } from '../../core/errors.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { writeAudit } from '../audit/index.ts';
import { getSettings } from '../settings/index.ts';
import { lockUser, type UserRow, users } from '../users/index.ts';
import { claimPc, findHwidComponents, rebindPc, storeBoundComponents } from './pc-binding.ts';
import { unbindAllowanceOf } from './unbind-allowance.ts';

/**
 * Whether offered components are the same PC as known ones under the policy (decision 906). The
 * known PC's components are the reference: one the agent does not send counts as changed, so sending
 * fewer parts never makes a match easier.
 */
function isSamePc(known: HwidComponents, offered: HwidComponents, policy: HwidMatchPolicy): boolean {
  const reference = HWID_COMPONENTS.filter((name) => known[name]);
  const same = reference.filter((name) => offered[name] === known[name]).length;
  if (reference.length === 0) return false;
  if (policy === 'all') return same === reference.length;
  if (policy === 'atLeastTwo') return same >= 2;
  return same * 2 > reference.length;
}

/**
 * Half or more of the reference's parts changed (or left out): whatever the policy, the PC is no
 * longer the one bound, and the change counts as an unbind (decision 906).
 */
const isMostlyChanged = (reference: HwidComponents, offered: HwidComponents): boolean =>
  !isSamePc(reference, offered, 'most');

/** The components both sides report with different values (what "changed" means). */
function changedComponents(known: HwidComponents, offered: HwidComponents): HwidComponent[] {
  return HWID_COMPONENTS.filter((name) => known[name] && offered[name] && offered[name] !== known[name]);
}

/** The reference's components that the offered ones do not keep (changed or left out). */
const notKept = (reference: HwidComponents, offered: HwidComponents): HwidComponent[] =>
  HWID_COMPONENTS.filter((name) => reference[name] && offered[name] !== reference[name]);

const labelsOf = (names: HwidComponent[]): string =>
  names.map((name) => HWID_COMPONENT_LABELS[name]).join(', ');

export interface PcClaim {
  user: UserRow;
  /** The agent's own hwid. */
  hwid: string;
  /** Its hashed components; null for an agent that sends none (one component: its hwid). */
  components: HwidComponents | null;
  ip: string | null;
  /** Where the binding's events are shown: the bot's timeline. */
  timeline: PcTimeline;
}

/** An event of a PC's binding, as the bot's timeline shows it. */
interface PcEvent {
  hwid: string;
  userId: string;
  kind: 'bound' | 'component_changed' | 'pc_changed' | 'pc_refused';
  at: Date;
  detail?: Record<string, string | null>;
}

/**
 * The bot's timeline, handed in by the bots module that opens the session: the timeline is the
 * bots', and the PCs sit below the bots (they ask the binding, decision 014).
 */
export interface PcTimeline {
  write(tx: TxContext, event: PcEvent): Promise<void>;
  hasSince(
    ctx: AppContext,
    query: { hwid: string; userId: string; kind: PcEvent['kind']; since: Date },
  ): Promise<boolean>;
}

/**
 * Decides which PC an agent is (decision 906) and answers the hwid it is bound as: binds the first
 * PC; recognises the bound PC by its hwid or, under another hwid, by its components matching the
 * reference (the parts as bound or as last moved by a counted change) or the parts last seen, under
 * the `hwidMatchPolicy`. A part change that keeps more than half of the reference is free (the
 * last-seen parts follow it, audited and in the bot's timeline); one that keeps half or less counts
 * as an unbind (`HWID_CHANGE_LIMIT` when none is left) and moves the reference. Another PC is
 * refused (`HWID_MISMATCH`), and so is the PC just released (`HWID_RELEASED`, decision 207).
 */
export async function bindOrRecognisePc(ctx: AppContext, claim: PcClaim): Promise<string> {
  const { user } = claim;
  if (user.hwid === null) {
    await refuseJustReleasedPc(ctx, claim);
    await bindHwid(ctx, claim);
    return claim.hwid;
  }
  if (user.hwid === claim.hwid && !claim.components) return user.hwid; // an agent of before 906
  const { bound, seen } = await findHwidComponents(ctx, user.id);
  const last = seen ?? bound;
  const isUnchanged =
    user.hwid === claim.hwid &&
    last?.hwid === user.hwid &&
    HWID_COMPONENTS.every(
      (name) => !claim.components?.[name] || claim.components[name] === last.components[name],
    );
  if (isUnchanged) return user.hwid;
  try {
    return await recognisePc(ctx, claim);
  } catch (error) {
    if (isAppError(error, 'HWID_CHANGE_LIMIT')) {
      await recordRefusedChange(ctx, {
        userId: user.id,
        hwid: user.hwid,
        refusal: error,
        timeline: claim.timeline,
      });
    }
    throw error;
  }
}

/** How often a refused change is written on the timeline: the agent retries until told otherwise. */
const REFUSAL_EVERY_MS = 3_600_000;

/**
 * A counted change refused (`HWID_CHANGE_LIMIT`) is shown on the bot's timeline (`pc_refused`), else
 * the owner saw only an offline bot (decision 906). Its own transaction, since the session's rolled
 * back; at most one per PC and hour, so an agent retrying does not flood the timeline.
 */
async function recordRefusedChange(
  ctx: AppContext,
  input: { userId: string; hwid: string; refusal: AppError<'HWID_CHANGE_LIMIT'>; timeline: PcTimeline },
): Promise<void> {
  const { userId, hwid, refusal, timeline } = input;
  const { details } = refusal;
  await inTransaction(ctx, async (tx) => {
    await lockUser(tx, userId);
    const since = new Date(Date.now() - REFUSAL_EVERY_MS);
    if (await timeline.hasSince(tx, { hwid, userId, kind: 'pc_refused', since })) return;
    await timeline.write(tx, {
      hwid,
      userId,
      kind: 'pc_refused',
      at: new Date(),
      detail: { nextResetAt: details.nextResetAt, components: details.changed },
    });
  });
}

/** The bound PC under a new hwid or with new parts: checked and updated under the user's lock. */
function recognisePc(ctx: AppContext, claim: PcClaim): Promise<string> {
  return inTransaction(ctx, async (tx) => {
    const user = await lockUser(tx, claim.user.id);
    const boundHwid = user.hwid;
    if (boundHwid === null) throw new AppError('HWID_MISMATCH'); // unbound meanwhile: the agent retries
    const { bound, seen } = await findHwidComponents(tx, user.id);
    const offered = claim.components ?? {};
    const reference = bound?.hwid === boundHwid ? bound.components : null;
    const isSameHwid = boundHwid === claim.hwid;
    if (!reference) {
      if (!isSameHwid) throw new AppError('HWID_MISMATCH');
      // A binding of before 906 gains its components: they are its reference from now on.
      await storeBoundComponents(tx, { userId: user.id, hwid: boundHwid, components: offered });
      return boundHwid;
    }
    const lastSeen = seen?.hwid === boundHwid ? seen.components : reference;
    const { hwidMatchPolicy } = await getSettings(tx);
    // The last-seen PC counts too: a part replaced after another is still this PC. Whether the
    // change is free is judged against the reference alone, so a drift part by part cannot move
    // the binding to another PC without spending an unbind (decision 906).
    const isThisPc =
      isSameHwid ||
      isSamePc(reference, offered, hwidMatchPolicy) ||
      isSamePc(lastSeen, offered, hwidMatchPolicy);
    if (!isThisPc) throw new AppError('HWID_MISMATCH');
    if (isMostlyChanged(reference, offered)) {
      await countPcChange(tx, { user: { ...user, hwid: boundHwid }, claim, reference, offered });
      return boundHwid;
    }
    const changed = changedComponents(lastSeen, offered);
    await storeBoundComponents(tx, { userId: user.id, hwid: boundHwid, components: offered, slot: 'seen' });
    if (changed.length === 0) return boundHwid;
    const names = labelsOf(changed);
    await writeAudit(tx, {
      actor: { id: user.id, username: user.username, ip: claim.ip },
      action: 'user.hwid_component_changed',
      target: { type: 'user', id: user.id, label: user.username },
      before: { hwid: boundHwid, ...pick(lastSeen, changed) },
      after: { hwid: boundHwid, agentHwid: claim.hwid, changed: names, ...pick(offered, changed) },
    });
    await claim.timeline.write(tx, {
      hwid: boundHwid,
      userId: user.id,
      kind: 'component_changed',
      at: new Date(),
      detail: { components: names },
    });
    return boundHwid;
  });
}

/**
 * The bound PC whose parts mostly changed since its reference: one unbind and a new binding of the
 * same hwid (decision 906), spent from `hwidResetsPerMonth` under the cooldown like a reset from the
 * account page, audited (`user.hwid_rebound`) and shown in the bot's timeline (`pc_changed`). With
 * none left, or during the cooldown, refused (`HWID_CHANGE_LIMIT`) and nothing changes.
 */
async function countPcChange(
  tx: TxContext,
  input: {
    user: UserRow & { hwid: string };
    claim: PcClaim;
    reference: HwidComponents;
    offered: HwidComponents;
  },
): Promise<void> {
  const { user, claim, reference, offered } = input;
  const { allowance } = await unbindAllowanceOf(tx, user.id, user.hwidResetAt);
  const nextResetAt = new Date(allowance.nextResetAt);
  const changed = notKept(reference, offered);
  const names = labelsOf(changed);
  if (allowance.remaining === 0 || nextResetAt.getTime() > Date.now()) {
    throw changeLimitRefusal(allowance, nextResetAt, names);
  }
  const now = new Date();
  await rebindPc(tx, { userId: user.id, hwid: user.hwid, components: offered, at: now });
  await writeAudit(tx, {
    actor: { id: user.id, username: user.username, ip: claim.ip },
    action: 'user.hwid_rebound',
    target: { type: 'user', id: user.id, label: user.username },
    before: { hwid: user.hwid, ...pick(reference, changed) },
    after: { hwid: user.hwid, agentHwid: claim.hwid, changed: names, ...pick(offered, changed) },
  });
  await claim.timeline.write(tx, {
    hwid: user.hwid,
    userId: user.id,
    kind: 'pc_changed',
    at: now,
    detail: { components: names },
  });
  tx.events.emit('user.changed', { userId: user.id });
}

function changeLimitRefusal(allowance: HwidResetAllowance, nextResetAt: Date, changed: string): AppError {
  return new AppError('HWID_CHANGE_LIMIT', {
    details: {
      nextResetAt: nextResetAt.toISOString(),
      limit: allowance.limit,
      remaining: allowance.remaining,
      windowDays: allowance.windowDays,
      changed,
    },
  });
}

const pick = (components: HwidComponents, names: HwidComponent[]): HwidComponents =>
  Object.fromEntries(names.map((name) => [name, components[name]]));

/**
 * The PC just unbound may not take the binding back while the reset cooldown runs (decision 207):
 * its bot, still running, would otherwise re-bind it within a second of the reset, and the new PC
 * the customer unbound it for would be refused. It is recognised by its hwid or by its components.
 */
async function refuseJustReleasedPc(ctx: AppContext, claim: PcClaim): Promise<void> {
  const { user } = claim;
  if (!user.releasedAt) return;
  const { hwidResetCooldownHours, hwidMatchPolicy } = await getSettings(ctx);
  const until = new Date(user.releasedAt.getTime() + hwidResetCooldownHours * 3_600_000);
  if (until.getTime() <= Date.now()) return;
  if (user.releasedHwid !== claim.hwid) {
    const { released } = await findHwidComponents(ctx, user.id);
    if (!released || !claim.components || !isSamePc(released.components, claim.components, hwidMatchPolicy)) {
      return;
    }
  }
  throw new AppError('HWID_RELEASED', { details: { releasedUntil: until.toISOString() } });
}

/**
 * Binds a PC (and its components) to a user who has none, audited and on the bot's timeline in one
 * transaction; a PC bound to another user is refused.
 */
async function bindHwid(ctx: AppContext, claim: PcClaim): Promise<void> {
  const { user } = claim;
  try {
    const bound = await inTransaction(ctx, async (tx) => {
      if (!(await claimPc(tx, user.id, claim.hwid))) return false;
      if (claim.components) {
        await storeBoundComponents(tx, { userId: user.id, hwid: claim.hwid, components: claim.components });
      }
      await claim.timeline.write(tx, { hwid: claim.hwid, userId: user.id, kind: 'bound', at: new Date() });
      await writeAudit(tx, {
        actor: { id: user.id, username: user.username, ip: claim.ip },
        action: 'user.hwid_bound',
        target: { type: 'user', id: user.id, label: user.username },
        before: { hwid: null },
        after: { hwid: claim.hwid },
      });
      tx.events.emit('user.changed', { userId: user.id });
      return true;
    });
    if (!bound) {
      // Another request bound a PC meanwhile: accept only if it is the same one.
      const [row] = await ctx.db.select({ hwid: users.hwid }).from(users).where(eq(users.id, user.id));
      if (row?.hwid !== claim.hwid) throw new AppError('HWID_MISMATCH');
    }
  } catch (error) {
    if (isUniqueViolation(error, 'users_hwid_idx')) throw new AppError('HWID_TAKEN');
    throw error;
  }
}
