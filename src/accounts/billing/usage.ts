import type { EntityManager } from '@mikro-orm/postgresql';
import type Stripe from 'stripe';
import type { Environment } from '../../platform/config/config.ts';
import type { TenantScope } from '../../platform/db/tenant-scope.ts';
import { runPeriodically } from '../../platform/runtime/periodic.ts';

export interface Usage {
  periodStart: string;
  periodEnd: string;
  /** Passports minted in the period: the pay-per-mint meter. */
  mints: number;
  /** Of those, already reported to Stripe's meter. */
  reported: number;
}

const HOUR_MS = 3_600_000;

/**
 * Mints of [start, end) and how many of them are reported: the whole hours inside the period from usage_counts
 * (kept by triggers, Migration20261124910000_usage_counts; its hours are UTC hours), the passports of the
 * partial first and last hour counted (passports_company_created_idx). Reads at most ~750 counts and two
 * hours of passports, however many the company minted (issue 26). Parameters: `periodUsageParams`.
 */
export const PERIOD_USAGE = `
  select (w.mints + e.mints)::int as mints, (w.reported + e.reported)::int as reported
  from (
    select coalesce(sum(mints), 0) as mints, coalesce(sum(reported), 0) as reported
    from usage_counts where company_id = ? and environment = ? and hour >= ? and hour < ?
  ) w, (
    select count(*) as mints, count(u.passport_id) as reported
    from passports p left join usage_reports u on u.passport_id = p.id
    where p.company_id = ? and p.environment = ?
      and ((p.created_at >= ? and p.created_at < ?) or (p.created_at >= ? and p.created_at < ?))
  ) e`;

/** PERIOD_USAGE's parameters: whole UTC hours [fullFrom, fullTo) from the counts, the rest from passports. */
export function periodUsageParams(scope: TenantScope, start: Date, end: Date): unknown[] {
  const floor = (t: number) => Math.floor(t / HOUR_MS) * HOUR_MS;
  const fullFrom = new Date(
    floor(start.getTime()) === start.getTime() ? start.getTime() : floor(start.getTime()) + HOUR_MS,
  );
  const fullTo = new Date(floor(end.getTime()));
  const firstTo = new Date(Math.min(fullFrom.getTime(), end.getTime()));
  const lastFrom = new Date(Math.max(fullTo.getTime(), fullFrom.getTime()));
  return [
    scope.companyId,
    scope.environment,
    fullFrom,
    fullTo,
    scope.companyId,
    scope.environment,
    start,
    firstTo,
    lastFrom,
    end,
  ];
}

/** The subscription's current period, or the calendar month (UTC) without one. */
export async function currentUsage(em: EntityManager, scope: TenantScope, now = new Date()): Promise<Usage> {
  const [account] = await em.execute<
    { current_period_start: Date | null; current_period_end: Date | null }[]
  >(
    'select current_period_start, current_period_end from billing_accounts where company_id = ? and environment = ?',
    [scope.companyId, scope.environment],
  );
  const start = account?.current_period_start
    ? new Date(account.current_period_start)
    : new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = account?.current_period_end
    ? new Date(account.current_period_end)
    : new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  const [row] = await em.execute<{ mints: number; reported: number }[]>(
    PERIOD_USAGE,
    periodUsageParams(scope, start, end),
  );
  return {
    periodStart: start.toISOString(),
    periodEnd: end.toISOString(),
    mints: row!.mints,
    reported: row!.reported,
  };
}

/**
 * Reports unreported mints of companies with a Stripe customer as meter events, one per passport. The event's
 * `identifier` is the passport's, so Stripe counts a retried report once; our record of it is written after
 * Stripe accepted it. Returns how many were reported.
 */
export async function reportUsage(
  em: EntityManager,
  stripeFor: (environment: Environment) => Stripe | undefined,
  meterEventName: string,
  limit = 500,
): Promise<number> {
  const rows = await em.execute<
    { id: number; environment: Environment; token_id: string; customer: string }[]
  >(
    `select p.id, p.environment, p.token_id, b.stripe_customer_id as customer
     from passports p
     join billing_accounts b on b.company_id = p.company_id and b.environment = p.environment
     where not exists (select 1 from usage_reports u where u.passport_id = p.id)
       and p.created_at >= coalesce(b.current_period_start, b.created_at)
     order by p.id limit ?`,
    [limit],
  );
  let reported = 0;
  for (const row of rows) {
    const stripe = stripeFor(row.environment);
    if (!stripe) continue;
    const identifier = `dpp-mint-${row.environment}-${row.token_id}`;
    await stripe.billing.meterEvents.create({
      event_name: meterEventName,
      identifier,
      payload: { stripe_customer_id: row.customer, value: '1' },
    });
    await em.execute(
      `insert into usage_reports (passport_id, meter_event_identifier) values (?, ?) on conflict do nothing`,
      [row.id, identifier],
    );
    reported++;
  }
  return reported;
}

/** Reports usage every `everyMs` (first run after one interval) until stopped; a failed run is retried next time. */
export function startUsageReporter(options: {
  em: () => EntityManager;
  stripeFor: (environment: Environment) => Stripe | undefined;
  meterEventName: string;
  logger: { info(o: object, m: string): void; warn(o: object, m: string): void };
  everyMs?: number;
}): { stop(): Promise<void> } {
  return runPeriodically(
    options.everyMs ?? 60_000,
    async () => {
      const n = await reportUsage(options.em(), options.stripeFor, options.meterEventName);
      if (n > 0) options.logger.info({ reported: n }, 'reported mints to the Stripe usage meter');
    },
    (error) => options.logger.warn({ err: error }, 'reporting usage to Stripe failed'),
  );
}
