import type { EntityManager } from '@mikro-orm/postgresql';
import type Stripe from 'stripe';
import type { StripeEnvironmentSettings } from '../../platform/config/payments-env.ts';
import type { TenantScope } from '../../platform/db/tenant-scope.ts';
import { DomainError } from '../../platform/errors.ts';

export type Plan = 'essential' | 'pro';
export const PLANS: readonly Plan[] = ['essential', 'pro'];

export interface BillingStatus {
  plan: Plan | null;
  /** Stripe's subscription status (active, trialing, past_due, canceled, …), or `none` without one. */
  status: string;
  currentPeriodStart: string | null;
  currentPeriodEnd: string | null;
  customerId: string | null;
}

interface AccountRow {
  stripe_customer_id: string;
  plan: Plan | null;
  status: string | null;
  current_period_start: Date | null;
  current_period_end: Date | null;
}

const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);

export async function billingStatus(em: EntityManager, scope: TenantScope): Promise<BillingStatus> {
  const [row] = await em.execute<AccountRow[]>(
    'select * from billing_accounts where company_id = ? and environment = ?',
    [scope.companyId, scope.environment],
  );
  return {
    plan: row?.plan ?? null,
    status: row?.status ?? 'none',
    currentPeriodStart: iso(row?.current_period_start ?? null),
    currentPeriodEnd: iso(row?.current_period_end ?? null),
    customerId: row?.stripe_customer_id ?? null,
  };
}

/** The company's Stripe customer in this environment, created once (Stripe's idempotency key guards a race). */
export async function ensureCustomer(em: EntityManager, stripe: Stripe, scope: TenantScope): Promise<string> {
  const [existing] = await em.execute<{ stripe_customer_id: string }[]>(
    'select stripe_customer_id from billing_accounts where company_id = ? and environment = ?',
    [scope.companyId, scope.environment],
  );
  if (existing) return existing.stripe_customer_id;
  const [company] = await em.execute<{ name: string }[]>('select name from companies where id = ?', [
    scope.companyId,
  ]);
  const customer = await stripe.customers.create(
    {
      name: company?.name ?? scope.companyId,
      metadata: { companyId: scope.companyId, environment: scope.environment },
    },
    { idempotencyKey: `dpp-customer-${scope.companyId}-${scope.environment}` },
  );
  await em.execute(
    `insert into billing_accounts (company_id, environment, stripe_customer_id) values (?, ?, ?)
     on conflict (company_id, environment) do nothing`,
    [scope.companyId, scope.environment, customer.id],
  );
  const [row] = await em.execute<{ stripe_customer_id: string }[]>(
    'select stripe_customer_id from billing_accounts where company_id = ? and environment = ?',
    [scope.companyId, scope.environment],
  );
  return row!.stripe_customer_id;
}

/** A subscription Checkout Session for the plan's price. */
export async function subscriptionCheckout(
  em: EntityManager,
  stripe: Stripe,
  settings: StripeEnvironmentSettings,
  scope: TenantScope,
  input: { plan: Plan; successUrl: string; cancelUrl: string },
): Promise<{ checkoutUrl: string; sessionId: string }> {
  const price = settings.prices[input.plan];
  if (!price) {
    throw new DomainError(
      'unavailable',
      'plan_not_configured',
      `The ${input.plan} plan has no Stripe price in this environment (STRIPE_PRICE_${input.plan.toUpperCase()}_${scope.environment.toUpperCase()}).`,
    );
  }
  const customer = await ensureCustomer(em, stripe, scope);
  const session = await stripe.checkout.sessions.create({
    mode: 'subscription',
    customer,
    line_items: [{ price, quantity: 1 }],
    success_url: input.successUrl,
    cancel_url: input.cancelUrl,
    metadata: { companyId: scope.companyId, environment: scope.environment, plan: input.plan },
    subscription_data: { metadata: { companyId: scope.companyId, environment: scope.environment } },
  });
  if (!session.url) throw new Error(`Checkout Session ${session.id} has no URL`);
  return { checkoutUrl: session.url, sessionId: session.id };
}

/**
 * customer.subscription.created / updated / deleted: the subscription's plan (from its price), status and
 * current period, applied only if the event is not older than what we hold (Stripe does not order events).
 */
export async function applySubscriptionEvent(
  em: EntityManager,
  settings: StripeEnvironmentSettings | undefined,
  environment: string,
  event: Stripe.Event,
): Promise<void> {
  const subscription = event.data.object as Stripe.Subscription;
  const customer =
    typeof subscription.customer === 'string' ? subscription.customer : subscription.customer.id;
  const item = subscription.items?.data?.[0];
  const priceId = item?.price?.id;
  const plan =
    priceId === settings?.prices.pro ? 'pro' : priceId === settings?.prices.essential ? 'essential' : null;
  const seconds = (value: number | undefined | null) => (value ? new Date(value * 1000) : null);
  const deleted = event.type === 'customer.subscription.deleted';
  // A subscription we did not start through checkout still names its company (subscription_data.metadata).
  const companyId = subscription.metadata?.companyId;
  if (companyId && subscription.metadata?.environment === environment) {
    await em.execute(
      `insert into billing_accounts (company_id, environment, stripe_customer_id)
       select ?, ?, ? where exists (select 1 from companies where id = ?)
       on conflict do nothing`,
      [companyId, environment, customer, companyId],
    );
  }
  await em.execute(
    `update billing_accounts set subscription_id = ?, plan = ?, status = ?, current_period_start = ?,
       current_period_end = ?, subscription_updated_at = ?
     where stripe_customer_id = ? and environment = ?
       and (subscription_updated_at is null or subscription_updated_at <= ?)`,
    [
      subscription.id,
      plan,
      deleted ? 'canceled' : subscription.status,
      seconds(item?.current_period_start),
      seconds(item?.current_period_end),
      new Date(event.created * 1000),
      customer,
      environment,
      new Date(event.created * 1000),
    ],
  );
}
