import type { EntityManager } from '@mikro-orm/postgresql';
import type { TenantScope } from '../../platform/db/tenant-scope.ts';
import { DomainError } from '../../platform/errors.ts';

/** Subscription states in which live mints are allowed (Stripe's; past_due keeps service during dunning). */
const PAYING = ['active', 'trialing', 'past_due'];

/**
 * Live passports are paid for: a live mint needs an Essential or Pro subscription in good standing (402
 * plan_required otherwise). The test environment is free, so integrations can be built before subscribing.
 */
export async function requireActivePlan(em: EntityManager, scope: TenantScope): Promise<void> {
  if (scope.environment === 'test') return;
  const [row] = await em.execute<{ status: string | null }[]>(
    'select status from billing_accounts where company_id = ? and environment = ?',
    [scope.companyId, scope.environment],
  );
  if (!row?.status || !PAYING.includes(row.status)) {
    throw new DomainError(
      'payment_required',
      'plan_required',
      'Live mints need an active Essential or Pro subscription: start one with POST /v1/billing/checkout.',
    );
  }
}
