import type { AppContext } from '../../core/context.ts';
import { newId } from '../../core/ids.ts';
import type { DbOrTx } from '../../db/client.ts';
import { auditLog } from './audit.table.ts';

export interface AuditActor {
  id: string | null;
  username: string | null;
  ip: string | null;
}

export interface AuditEntry {
  actor: AuditActor;
  action: string;
  target?: { type: string; id: string; label?: string };
  before?: unknown;
  after?: unknown;
}

/** Writes one audit entry; pass the transaction of the change so both commit or neither does. */
export async function writeAudit(db: DbOrTx, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({
    id: newId(),
    actorId: entry.actor.id,
    actorUsername: entry.actor.username,
    action: entry.action,
    targetType: entry.target?.type ?? null,
    targetId: entry.target?.id ?? null,
    targetLabel: entry.target?.label ?? null,
    before: entry.before ?? null,
    after: entry.after ?? null,
    ip: entry.actor.ip,
  });
}

/** A security event with no staff actor (sign-in failed, password reset...). */
export function writeSecurityEvent(ctx: AppContext, entry: AuditEntry): Promise<void> {
  return writeAudit(ctx.db, entry);
}
