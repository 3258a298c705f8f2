import assert from 'node:assert/strict';
import { ApplicationFailure, WorkflowFailedError } from '@temporalio/client';
import Koa from 'koa';
import Stripe from 'stripe';
import { describe, test } from 'vitest';
import { problemHandler } from '../../api/middleware/problem-handler.ts';
import { listen } from '../../api/server.ts';
import { redactProviderMessage } from '../../src/adapters/payments/provider-errors.ts';
import { resaleFailureToDomainError } from '../../src/lifecycle/resale/resale-failures.ts';
import { createLogger } from '../../src/platform/logging/logger.ts';

const KEY = 'sk_test_Qz9f8e7d6c5b4a3210KqWvXy';
/** What stripe-mock (and, in part, Stripe) answers about a key it refuses: the request's own header, quoted. */
const RAW = `Invalid request: Authorization was 'Bearer ${KEY}'. Your key ${KEY} is not valid looking.`;

describe('a payment provider’s refusal on a synchronous call', () => {
  test('is answered in our words with Stripe’s code: nothing of its message, nothing of our key', async () => {
    const app = new Koa();
    app.use(async (ctx, next) => {
      Object.assign(ctx.state, { requestId: 'req-1', log: createLogger('silent') });
      await next();
    });
    app.use(problemHandler() as Koa.Middleware);
    app.use(() => {
      throw new Stripe.errors.StripeInvalidRequestError({
        type: 'invalid_request_error',
        message: RAW,
        code: 'amount_too_small',
      });
    });
    const server = await listen(app as never, '127.0.0.1', 0, { bodyReadTimeoutMs: 5000 });
    try {
      const answer = await fetch(`${server.url}/v1/billing/checkout`, { method: 'POST' });
      const text = await answer.text();
      assert.equal(answer.status, 422, text);
      const body = JSON.parse(text);
      assert.equal(body.code, 'payment_provider_rejected');
      assert.match(body.detail, /amount_too_small/);
      for (const raw of [KEY.slice(8, 16), 'Authorization', 'Bearer', 'valid looking']) {
        assert.ok(!text.includes(raw), `"${raw}" in ${text}`);
      }
    } finally {
      await server.close(0);
    }
  });

  test('the operator’s log gets the message with anything key-like removed', () => {
    const redacted = redactProviderMessage(RAW, [KEY]);
    assert.ok(!redacted.includes(KEY.slice(8)), redacted);
    assert.ok(!redacted.includes('sk_test_'), redacted);
    assert.ok(!/Bearer\s+\S*Qz9/.test(redacted), redacted);
    assert.equal(
      redactProviderMessage('No such price: price_123', ['sk_test_x']),
      'No such price: price_123',
    );
  });

  test('a release whose checkout Stripe refused: 422 payment_provider_rejected with Stripe’s code, our words', () => {
    const failed = (providerType: string, code: string | null) =>
      new WorkflowFailedError(
        'Workflow execution failed',
        ApplicationFailure.create({
          type: 'StripeRejected',
          message: 'Stripe refused the request (StripeInvalidRequestError, HTTP 400).',
          nonRetryable: true,
          details: [{ providerType, code, statusCode: 400, requestId: 'req_1' }],
        }),
        'NON_RETRYABLE_FAILURE',
      );
    const rejected = resaleFailureToDomainError(failed('StripeInvalidRequestError', 'amount_too_small'));
    assert.equal(rejected?.code, 'payment_provider_rejected');
    assert.equal(rejected?.kind, 'rejected');
    assert.match(rejected!.message, /provider code amount_too_small/);
    assert.match(rejected!.message, /nothing was sent to the chain/);
    const notACode = resaleFailureToDomainError(failed('StripeInvalidRequestError', `Bearer ${KEY}`));
    assert.ok(!notACode!.message.includes(KEY.slice(8)), notACode!.message);
    const ourKey = resaleFailureToDomainError(failed('StripeAuthenticationError', null));
    assert.equal(ourKey?.code, 'payments_misconfigured');
    assert.equal(ourKey?.kind, 'unavailable');
  });
});
