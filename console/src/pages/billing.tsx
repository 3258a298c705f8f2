import { useCallback, useEffect, useState } from 'react';
import '../account.css';
import { type BillingStatus, type BillingUsage, billing, type PlanOffer } from '../account-api.ts';
import type { Environment, SessionUser } from '../api.ts';
import { ErrorAlert } from '../components/error-alert.tsx';
import { PlanOffers } from '../components/plan-offers.tsx';
import { useFailure } from '../hooks/use-failure.ts';
import { usePageHeading } from '../hooks/use-page-heading.ts';
import { useRight } from '../rights.tsx';

interface BillingProps {
  user: SessionUser;
  environment: Environment;
  onSessionEnded: (error: unknown) => boolean;
}

const day = new Intl.DateTimeFormat('en', { dateStyle: 'medium' });
/** Stripe subscription statuses after which a new checkout is the way back to a plan. */
const ENDED = new Set(['none', 'canceled', 'incomplete_expired']);
/** Where Stripe sends the person back: this page. */
const returnUrl = () => `${window.location.origin}/console/settings/billing`;

/** Settings › Billing: the plan, this period's mints, and (owners) Stripe Checkout and the customer portal. */
export function Billing({ user, environment, onSessionEnded }: BillingProps) {
  const { error, setError, fail } = useFailure(onSessionEnded);
  const [status, setStatus] = useState<BillingStatus | null>(null);
  const [usage, setUsage] = useState<BillingUsage | null>(null);
  const [offers, setOffers] = useState<{ plans: PlanOffer[]; includedInEveryPlan: string[] } | null>(null);
  const [link, setLink] = useState<{ href: string; text: string; from: 'checkout' | 'portal' } | null>(null);
  const [busy, setBusy] = useState(false);
  const heading = usePageHeading('Billing');
  const isOwner = useRight('manageCompany');

  const load = useCallback(async () => {
    try {
      const [s, u, p] = await Promise.all([
        billing.status(environment),
        billing.usage(environment),
        billing.plans(environment),
      ]);
      setStatus(s);
      setUsage(u);
      setOffers(p);
    } catch (caught) {
      fail(caught);
    }
  }, [environment, fail]);

  useEffect(() => {
    setLink(null);
    void load();
  }, [load]);

  const open = async (work: () => Promise<{ href: string; text: string; from: 'checkout' | 'portal' }>) => {
    setBusy(true);
    setError(null);
    setLink(null);
    try {
      setLink(await work());
      // A first checkout creates the Stripe customer: the portal is available from now on.
      await load();
    } catch (caught) {
      fail(caught);
    } finally {
      setBusy(false);
    }
  };
  const checkout = (plan: PlanOffer) =>
    open(async () => ({
      href: (await billing.checkout(environment, plan.id, returnUrl())).checkoutUrl,
      text: `Continue to Stripe Checkout for ${plan.name}`,
      from: 'checkout',
    }));
  const portal = () =>
    open(async () => ({
      href: (await billing.portal(environment, returnUrl())).portalUrl,
      text: 'Continue to the Stripe billing portal',
      from: 'portal',
    }));
  /** Where Stripe's link appears: under the button that asked for it. */
  const linkLine = (from: 'checkout' | 'portal') => (
    <p role="status" className={link?.from === from ? 'success' : 'visually-hidden'}>
      {link?.from === from ? (
        <a href={link.href} rel="noreferrer">
          {link.text}
        </a>
      ) : (
        ''
      )}
    </p>
  );

  const plan = (status?.plan && offers?.plans.find((offer) => offer.id === status.plan)?.name) ?? 'No plan';
  // With a running subscription the plan is changed or cancelled in Stripe's portal, not by a second checkout.
  const subscribed = status?.plan != null && !ENDED.has(status.status);
  return (
    <section aria-labelledby="billing-heading">
      <h1 id="billing-heading" ref={heading} tabIndex={-1}>
        Billing
      </h1>
      <p className="lede">
        The {environment} environment’s subscription of {user.companyName}.{' '}
        {environment === 'test'
          ? 'The test environment is free; its checkout uses Stripe’s test mode.'
          : 'Live mints need an active plan.'}
      </p>
      <ErrorAlert error={error} />
      {status === null || usage === null || offers === null ? (
        <p role="status">Loading billing…</p>
      ) : (
        <>
          <div className="card">
            <h2>Plan</h2>
            <dl className="account-facts">
              <dt>Plan</dt>
              <dd>{plan}</dd>
              <dt>Status</dt>
              <dd>{status.status}</dd>
              <dt>Current period</dt>
              <dd>
                {status.currentPeriodStart && status.currentPeriodEnd
                  ? `${day.format(new Date(status.currentPeriodStart))} – ${day.format(new Date(status.currentPeriodEnd))}`
                  : 'None'}
              </dd>
            </dl>
            {isOwner ? (
              <>
                {status.customerId ? (
                  <div className="button-row">
                    <button type="button" className="secondary" disabled={busy} onClick={() => void portal()}>
                      Manage billing
                    </button>
                  </div>
                ) : null}
                {linkLine('portal')}
                <p className="hint">
                  {subscribed
                    ? 'Change or cancel the plan, see invoices and the payment method in Stripe’s billing portal.'
                    : 'Choose a plan under Pricing: Stripe Checkout opens on Stripe’s site; the plan shows here once Stripe confirms it.'}
                </p>
              </>
            ) : (
              <p className="notice">Only owners change the plan; your role is {user.role}.</p>
            )}
          </div>
          <div className="card">
            <h2>Pricing</h2>
            <PlanOffers
              plans={offers.plans}
              included={offers.includedInEveryPlan}
              current={subscribed ? status.plan : null}
              action={(offer) =>
                // With a running subscription the plan is changed in Stripe's portal, not by a second checkout.
                isOwner && !subscribed ? (
                  <button type="button" disabled={busy} onClick={() => void checkout(offer)}>
                    Subscribe to {offer.name}
                  </button>
                ) : null
              }
            />
            {linkLine('checkout')}
          </div>
          <div className="card">
            <h2>Usage this period</h2>
            <dl className="account-facts">
              <dt>Period</dt>
              <dd>
                {day.format(new Date(usage.periodStart))} – {day.format(new Date(usage.periodEnd))}
              </dd>
              <dt>Passports minted</dt>
              <dd>{usage.mints}</dd>
              <dt>Reported to Stripe</dt>
              <dd>{usage.reported}</dd>
            </dl>
          </div>
        </>
      )}
    </section>
  );
}
