import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { reportUsage } from '../../src/accounts/billing/usage.ts';
import type { TestTenant } from '../support/api.ts';
import { enrollAndMint, shapeBBody } from '../support/fixtures/mint.ts';
import { CONFORMITY_URL } from '../support/fixtures/products.ts';
import { LIVE_TEST_SECRETS } from '../support/secrets.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';
import { postStripeEvent, signedStripeEvent, TEST_STRIPE } from '../support/stripe.ts';

const LIVE_SECRET = 'whsec_dppServiceTestsLiveSigningSecret0123';
/** Shape B needs a declaration of conformity (or a company default) before the plan is even checked. */
const CONFORMITY = { conformity_url: CONFORMITY_URL };
/** A shape-B mint in live of a chip never enrolled there. */
const LIVE_MINT = shapeBBody({ chipUid: '04AA000000BB01', material: 'x', customDppData: CONFORMITY });
/** The subscription's current period began yesterday. */
const PERIOD_START = Math.floor(Date.now() / 1000) - 86_400;

function subscriptionEvent(
  id: string,
  type: string,
  customer: string,
  options: {
    status: string;
    price: string;
    created: number;
    livemode?: boolean;
    metadata?: Record<string, string>;
  },
) {
  const start = PERIOD_START;
  return {
    id,
    type,
    created: options.created,
    livemode: options.livemode ?? false,
    data: {
      object: {
        id: 'sub_dpp_1',
        object: 'subscription',
        customer,
        status: options.status,
        metadata: options.metadata ?? {},
        items: {
          object: 'list',
          data: [
            {
              id: 'si_1',
              object: 'subscription_item',
              price: { id: options.price, object: 'price' },
              current_period_start: start,
              current_period_end: start + 30 * 86_400,
            },
          ],
        },
      },
    },
  };
}

describe('billing: Essential and Pro through Stripe, status from signed webhooks, the pay-per-mint meter', () => {
  let stack: TestStack;
  let tenant: TestTenant;
  const call = (method: string, path: string, body?: unknown, env = 'test') =>
    stack.api.call(method, path, {
      key: env === 'live' ? tenant.liveKey : tenant.testKey,
      env,
      ...(body === undefined ? {} : { body }),
    });
  const webhook = (signed: { body: string; headers: Record<string, string> }) =>
    postStripeEvent(stack.api, signed);

  beforeAll(async () => {
    stack = await startTestStack({
      apiEnv: {
        ...LIVE_TEST_SECRETS,
        STRIPE_SECRET_KEY_LIVE: 'sk_live_DppServiceTests0123456789',
        STRIPE_WEBHOOK_SECRET_LIVE: LIVE_SECRET,
        STRIPE_PRICE_ESSENTIAL_LIVE: 'price_live_essential',
        STRIPE_PRICE_PRO_LIVE: 'price_live_pro',
      },
    });
    tenant = await stack.api.createTenant('Acme Apparel');
  });
  afterAll(() => stack.close());

  test('checkout → signed subscription events → status; an older event does not undo a newer one', async () => {
    const before = await call('GET', '/v1/billing/status');
    assert.equal(before.status, 200);
    assert.deepEqual(
      { plan: before.body.plan, status: before.body.status, customerId: before.body.customerId },
      { plan: null, status: 'none', customerId: null },
    );
    assert.equal((await call('POST', '/v1/billing/portal')).body.code, 'no_billing_account');

    const checkout = await call('POST', '/v1/billing/checkout', { plan: 'pro' });
    assert.equal(checkout.status, 201, checkout.text);
    assert.match(checkout.body.checkoutUrl, /^https:\/\//);
    const again = await call('POST', '/v1/billing/checkout', { plan: 'essential' });
    assert.equal(again.status, 201);
    const customer: string = (await call('GET', '/v1/billing/status')).body.customerId;
    assert.match(customer, /^cus_/);

    const now = Math.floor(Date.now() / 1000);
    const created = subscriptionEvent('evt_sub_1', 'customer.subscription.created', customer, {
      status: 'active',
      price: TEST_STRIPE.prices.pro,
      created: now,
    });
    assert.equal((await webhook(signedStripeEvent(created))).body.outcome, 'applied');
    const status = (await call('GET', '/v1/billing/status')).body;
    assert.equal(status.plan, 'pro');
    assert.equal(status.status, 'active');
    assert.equal(status.currentPeriodStart, new Date(PERIOD_START * 1000).toISOString());
    assert.equal(status.currentPeriodEnd, new Date((PERIOD_START + 30 * 86_400) * 1000).toISOString());

    const stale = subscriptionEvent('evt_sub_0', 'customer.subscription.updated', customer, {
      status: 'incomplete',
      price: TEST_STRIPE.prices.essential,
      created: now - 60,
    });
    assert.equal((await webhook(signedStripeEvent(stale))).status, 200);
    assert.equal(
      (await call('GET', '/v1/billing/status')).body.status,
      'active',
      'Stripe does not order events',
    );
    const portal = await call('POST', '/v1/billing/portal', {});
    assert.equal(portal.status, 201, portal.text);
    assert.match(portal.body.portalUrl, /^https:\/\//);
  });

  test('live mints need an active plan (402); the test environment is free', async () => {
    const refused = await call('POST', '/v1/dpp/mint', LIVE_MINT, 'live');
    assert.equal(refused.status, 402, refused.text);
    assert.equal(refused.body.code, 'plan_required');
    // stripe-mock takes test keys only: the live subscription arrives as its signed event, naming its company.
    const event = subscriptionEvent('evt_live_sub', 'customer.subscription.created', 'cus_live_acme', {
      status: 'active',
      price: 'price_live_essential',
      created: Math.floor(Date.now() / 1000),
      livemode: true,
      metadata: { companyId: tenant.companyId, environment: 'live' },
    });
    assert.equal((await webhook(signedStripeEvent(event, { secret: LIVE_SECRET }))).body.outcome, 'applied');
    const allowed = await call('POST', '/v1/dpp/mint', LIVE_MINT, 'live');
    assert.notEqual(allowed.status, 402, 'past the plan check (the chip is simply not enrolled)');
    assert.equal(allowed.body.code, 'chip_not_found');
    const deleted = {
      ...event,
      id: 'evt_live_sub_deleted',
      type: 'customer.subscription.deleted',
      created: event.created + 1,
    };
    await webhook(signedStripeEvent(deleted, { secret: LIVE_SECRET }));
    assert.equal((await call('POST', '/v1/dpp/mint', LIVE_MINT, 'live')).status, 402);
  });

  test('each mint is reported to the usage meter once, however often the reporter runs', async () => {
    await enrollAndMint((m, p, b) => call(m, p, b), '04AA000000CC01');
    const usage = (await call('GET', '/v1/billing/usage')).body;
    assert.equal(usage.mints, 1);
    assert.equal(usage.reported, 0);
    const gateway = stack.deps.payments;
    const em = () => stack.api.db.orm.em.fork();
    const stripeFor = (environment: 'live' | 'test') =>
      environment === 'test' ? gateway.forEnvironment('test').stripe : undefined;
    assert.equal(await reportUsage(em(), stripeFor, 'dpp_mint'), 1);
    assert.equal(await reportUsage(em(), stripeFor, 'dpp_mint'), 0, 'a second run reports nothing again');
    const after = (await call('GET', '/v1/billing/usage')).body;
    assert.deepEqual({ mints: after.mints, reported: after.reported }, { mints: 1, reported: 1 });
    assert.equal(after.meterEventName, 'dpp_mint');
  });
});
