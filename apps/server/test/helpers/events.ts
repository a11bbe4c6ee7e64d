import { type AppContext, inTransaction } from '../../src/context.ts';
import type { DomainEventName, DomainEvents } from '../../src/core/events.ts';

/**
 * Announces a change a test made straight in the database (or another node made), as the use case
 * that owns it would: emitted in a transaction, published at its commit. Outside a transaction the
 * context has no `emit` (docs/architecture.md, "A use case owns its effects").
 */
export function announce<K extends DomainEventName>(
  ctx: AppContext,
  name: K,
  payload: DomainEvents[K],
): Promise<void> {
  return inTransaction(ctx, async (tx) => tx.events.emit(name, payload));
}
