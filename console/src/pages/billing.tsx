import { useCallback, useEffect, useState } from 'react';
import '../account.css';
import { type BillingStatus, type BillingUsage, billing } from '../account-api.ts';
import type { Environment, SessionUser } from '../api.ts';
import { ErrorAlert } from '../components/error-alert.tsx';
import { useFailure } from '../hooks/use-failure.ts';
import { usePageHeading } from '../hooks/use-page-heading.ts';

interface BillingProps {
  user: SessionUser;
  environment: Environment;
  onSessionEnded: (error: unknown) => boolean;
}

const day = new Intl.DateTimeFormat('en', { dateStyle: 'medium' });
const PLAN_NAMES = { essential: 'Essential', pro: 'Pro' } as const;
/** Stripe subscription statuses after which a new checkout is the way back to a plan. */
const ENDED = new Set(['none', 'canceled', 'incomplete_expired']);
/** Where Stripe sends the person back: this page. */
const returnUrl = () => `${window.location.origin}/console/settings/billing`;

/** Settings › Billing: the plan, this period's mints, and (owners) Stripe Checkout and the customer portal. */
export function Billing({ user, environment, onSessionEnded }: BillingProps) {
  const { error, setError, fail } = useFailure(onSessionEnded);
  const [status, setStatus] = useState<BillingStatus | null>(null);
  const [usage, setUsage] = useState<BillingUsage | null>(null);
  const [link, setLink] = useState<{ href: string; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const heading = usePageHeading('Billing');
  const isOwner = user.role === 'owner';

  const load = useCallback(async () => {
    try {
      const [s, u] = await Promise.all([billing.status(environment), billing.usage(environment)]);
      setStatus(s);
      setUsage(u);
    } catch (caught) {
      fail(caught);
    }
  }, [environment, fail]);

  useEffect(() => {
    setLink(null);
    void load();
  }, [load]);

  const open = async (work: () => Promise<{ href: string; text: string }>) => {
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
  const checkout = (plan: 'essential' | 'pro') =>
    open(async () => ({
      href: (await billing.checkout(environment, plan, returnUrl())).checkoutUrl,
      text: `Continue to Stripe Checkout for ${PLAN_NAMES[plan]}`,
    }));
  const portal = () =>
    open(async () => ({
      href: (await billing.portal(environment, returnUrl())).portalUrl,
      text: 'Continue to the Stripe billing portal',
    }));

  const plan = status?.plan ? PLAN_NAMES[status.plan] : 'No plan';
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
      {status === null || usage === null ? (
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
                <div className="button-row">
                  {subscribed ? null : (
                    <>
                      <button type="button" disabled={busy} onClick={() => void checkout('essential')}>
                        Subscribe to Essential
                      </button>
                      <button type="button" disabled={busy} onClick={() => void checkout('pro')}>
                        Subscribe to Pro
                      </button>
                    </>
                  )}
                  {status.customerId ? (
                    <button type="button" className="secondary" disabled={busy} onClick={() => void portal()}>
                      Manage billing
                    </button>
                  ) : null}
                </div>
                <p role="status" className={link ? 'success' : 'visually-hidden'}>
                  {link ? (
                    <a href={link.href} rel="noreferrer">
                      {link.text}
                    </a>
                  ) : (
                    ''
                  )}
                </p>
                <p className="hint">
                  {subscribed
                    ? 'Change or cancel the plan, see invoices and the payment method in Stripe’s billing portal.'
                    : 'Stripe Checkout opens on Stripe’s site; the plan shows here once Stripe confirms it.'}
                </p>
              </>
            ) : (
              <p className="notice">Only owners change the plan; your role is {user.role}.</p>
            )}
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
