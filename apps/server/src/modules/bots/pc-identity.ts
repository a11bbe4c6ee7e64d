import {
  HWID_COMPONENT_LABELS,
  HWID_COMPONENTS,
  type HwidComponent,
  type HwidComponents,
  type HwidMatchPolicy,
} from '@bot/contracts';
import { eq } from 'drizzle-orm';
import { type AppContext, inTransaction } from '../../context.ts';
import { AppError } from '../../core/errors.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { writeAudit } from '../audit/audit.service.ts';
import { getSettings } from '../settings/settings.service.ts';
import { claimHwid, findHwidComponents, lockUser, storeBoundComponents } from '../users/users.service.ts';
import { type UserRow, users } from '../users/users.table.ts';
import { writeBotEvent } from './bot-events.ts';

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

/** The components both sides report with different values (what "changed" means). */
function changedComponents(known: HwidComponents, offered: HwidComponents): HwidComponent[] {
  return HWID_COMPONENTS.filter((name) => known[name] && offered[name] && offered[name] !== known[name]);
}

export interface PcClaim {
  user: UserRow;
  /** The agent's own hwid. */
  hwid: string;
  /** Its hashed components; null for an agent that sends none (one component: its hwid). */
  components: HwidComponents | null;
  ip: string | null;
}

/**
 * Decides which PC an agent is (decision 906) and answers the hwid it is bound as: binds the first
 * PC, recognises the bound PC by its hwid or, under another hwid, by its components under the
 * `hwidMatchPolicy` (the changed parts are then updated, audited and put in the bot's timeline), and
 * refuses another PC (`HWID_MISMATCH`) or the PC just released (`HWID_RELEASED`, decision 207).
 */
export async function bindOrRecognisePc(ctx: AppContext, claim: PcClaim): Promise<string> {
  const { user } = claim;
  if (user.hwid === null) {
    await refuseJustReleasedPc(ctx, claim);
    await bindHwid(ctx, claim);
    return claim.hwid;
  }
  if (user.hwid === claim.hwid && !claim.components) return user.hwid; // an agent of before 906
  const { bound } = await findHwidComponents(ctx, user.id);
  const isUnchanged =
    user.hwid === claim.hwid &&
    bound?.hwid === user.hwid &&
    HWID_COMPONENTS.every(
      (name) => !claim.components?.[name] || claim.components[name] === bound.components[name],
    );
  if (isUnchanged) return user.hwid;
  return recognisePc(ctx, claim);
}

/** The bound PC under a new hwid or with new parts: checked and updated under the user's lock. */
function recognisePc(ctx: AppContext, claim: PcClaim): Promise<string> {
  return inTransaction(ctx, async (tx) => {
    const user = await lockUser(tx, claim.user.id);
    const boundHwid = user.hwid;
    if (boundHwid === null) throw new AppError('HWID_MISMATCH'); // unbound meanwhile: the agent retries
    const { bound } = await findHwidComponents(tx, user.id);
    const offered = claim.components ?? {};
    const known = bound?.hwid === boundHwid ? bound.components : null;
    if (boundHwid !== claim.hwid) {
      const { hwidMatchPolicy } = await getSettings(tx);
      if (!known || !isSamePc(known, offered, hwidMatchPolicy)) throw new AppError('HWID_MISMATCH');
    }
    const changed = known ? changedComponents(known, offered) : [];
    await storeBoundComponents(tx, {
      userId: user.id,
      hwid: boundHwid,
      components: { ...known, ...offered },
    });
    if (changed.length === 0) return boundHwid; // a binding of before 906 gains its components
    const names = changed.map((name) => HWID_COMPONENT_LABELS[name]).join(', ');
    await writeAudit(tx, {
      actor: { id: user.id, username: user.username, ip: claim.ip },
      action: 'user.hwid_component_changed',
      target: { type: 'user', id: user.id, label: user.username },
      before: { hwid: boundHwid, ...pick(known ?? {}, changed) },
      after: { hwid: boundHwid, agentHwid: claim.hwid, changed: names, ...pick(offered, changed) },
    });
    await writeBotEvent(tx, {
      hwid: boundHwid,
      userId: user.id,
      kind: 'component_changed',
      at: new Date(),
      detail: { components: names },
    });
    return boundHwid;
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
  const when = until.toLocaleString('fr-FR', {
    timeZone: 'Europe/Paris',
    dateStyle: 'short',
    timeStyle: 'short',
  });
  throw new AppError('HWID_RELEASED', {
    message: `Ce PC a été délié de votre compte : lancez le bot sur votre nouveau PC. Ce PC-ci ne pourra être relié à nouveau qu’à partir du ${when} (heure de Paris).`,
    details: { releasedUntil: until.toISOString() },
  });
}

/** Binds a PC (and its components) to a user who has none; a PC bound to another user is refused. */
async function bindHwid(ctx: AppContext, claim: PcClaim): Promise<void> {
  const userId = claim.user.id;
  try {
    const bound = await inTransaction(ctx, async (tx) => {
      const claimed = await claimHwid(tx, userId, claim.hwid);
      if (claimed) {
        if (claim.components) {
          await storeBoundComponents(tx, { userId, hwid: claim.hwid, components: claim.components });
        }
        await writeBotEvent(tx, { hwid: claim.hwid, userId, kind: 'bound', at: new Date() });
      }
      return claimed;
    });
    if (!bound) {
      // Another request bound a PC meanwhile: accept only if it is the same one.
      const [row] = await ctx.db.select({ hwid: users.hwid }).from(users).where(eq(users.id, userId));
      if (row?.hwid !== claim.hwid) throw new AppError('HWID_MISMATCH');
      return;
    }
  } catch (error) {
    if (isUniqueViolation(error, 'users_hwid_idx')) throw new AppError('HWID_TAKEN');
    throw error;
  }
  ctx.events.emit('user.changed', { userId });
}
