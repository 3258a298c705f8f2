import type { EntityManager } from '@mikro-orm/postgresql';
import type { TenantScope } from '../../platform/db/tenant-scope.ts';
import { DomainError } from '../../platform/errors.ts';
import { SIGNAL_COLUMNS, type SignalView, signalView } from './list-signals.ts';

/**
 * Marks a signal resolved for the whole company (who did it kept). Resolving again keeps the first resolution.
 * A resolved occurrence is not raised again; its evidence still follows later readings (docs/signals.md).
 */
export async function resolveSignal(
  em: EntityManager,
  scope: TenantScope,
  id: string,
  resolvedBy: string,
): Promise<SignalView> {
  const [row] = await em.execute<Parameters<typeof signalView>[0][]>(
    `update chip_signals set resolved_at = coalesce(resolved_at, now()), resolved_by = coalesce(resolved_by, ?)
      where company_id = ? and environment = ? and id = ?
      returning ${SIGNAL_COLUMNS}`,
    [resolvedBy, scope.companyId, scope.environment, id],
  );
  if (!row) throw new DomainError('not_found', 'signal_not_found', `No signal ${id} in this environment.`);
  return signalView(row);
}
