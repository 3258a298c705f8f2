import type { ReactNode } from 'react';
import type { PlanOffer } from '../account-api.ts';

/** "€49.00 per month", "€0.05 per mint", or what is known of a price Stripe states otherwise. */
export function priceText(price: PlanOffer['price']): string {
  if (!price) return 'Price not available';
  if (price.unitAmount === null) return 'Priced by usage tiers (see Stripe Checkout)';
  const amount = new Intl.NumberFormat('en', {
    style: 'currency',
    currency: price.currency.toUpperCase(),
  }).format(price.unitAmount / 100);
  if (price.usageType === 'metered') return `${amount} per mint`;
  if (!price.interval) return amount;
  const every =
    price.intervalCount && price.intervalCount > 1
      ? `${price.intervalCount} ${price.interval}s`
      : price.interval;
  return `${amount} per ${every}`;
}

interface PlanOffersProps {
  plans: PlanOffer[];
  included: string[];
  current: PlanOffer['id'] | null;
  /** The plan's subscribe button, when the person may start one. */
  action: (plan: PlanOffer) => ReactNode;
}

/** The plans side by side: price, what each includes, and what every plan includes. */
export function PlanOffers({ plans, included, current, action }: PlanOffersProps) {
  return (
    <>
      <ul className="plan-offers">
        {plans.map((plan) => (
          <li key={plan.id} className={plan.id === current ? 'plan-offer current' : 'plan-offer'}>
            <h3>
              {plan.name}
              {plan.id === current ? <span className="plan-current"> (your plan)</span> : null}
            </h3>
            <p className="plan-price">{priceText(plan.price)}</p>
            {plan.description ? <p>{plan.description}</p> : null}
            {plan.features.length > 0 ? (
              <ul aria-label={`${plan.name} includes`}>
                {plan.features.map((feature) => (
                  <li key={feature}>{feature}</li>
                ))}
              </ul>
            ) : null}
            {action(plan)}
          </li>
        ))}
      </ul>
      <h3>Every plan includes</h3>
      <ul aria-label="Every plan includes">
        {included.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
    </>
  );
}
