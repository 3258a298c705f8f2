import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { ConfigError, loadConfig } from '../../src/platform/config/config.ts';
import { LIVE_TEST_SECRETS } from '../support/secrets.ts';

/** Issue 27.1: private webhook targets in the test environment are a development convenience only. */
describe('WEBHOOK_ALLOW_PRIVATE_URLS_IN_TEST', () => {
  // The live secrets are set throughout: without them a live configuration does not load at all.
  const allowed = (env: Record<string, string>, developmentDefaults?: boolean) =>
    loadConfig(
      { ...LIVE_TEST_SECRETS, ...env },
      developmentDefaults === undefined ? {} : { developmentDefaults },
    ).webhooks.allowPrivateUrlsInTest;

  test('unset: off in a deployment (api/main.ts, worker/main.ts load without development defaults)', () => {
    assert.equal(allowed({}), false);
    assert.equal(allowed({}, false), false);
  });

  test('unset: on with the development defaults npm start and the tests share', () => {
    assert.equal(allowed({}, true), true);
  });

  test('always off once the live environment is configured, development defaults or not', () => {
    const lives: Record<string, string>[] = [
      { CHAIN_RPC_URL_LIVE: 'https://rpc.example' },
      { CONTRACT_ADDRESS_LIVE: `0x${'1'.repeat(40)}` },
      { CHAIN_PRIVATE_KEY_LIVE: `0x${'2'.repeat(64)}` },
      { STRIPE_SECRET_KEY_LIVE: 'sk_live_abc123' },
      { NODE_ENV: 'production' },
    ];
    for (const live of lives) {
      assert.equal(allowed(live, true), false, JSON.stringify(live));
      assert.equal(allowed({ ...live, WEBHOOK_ALLOW_PRIVATE_URLS_IN_TEST: 'false' }, true), false);
      assert.throws(
        () => allowed({ ...live, WEBHOOK_ALLOW_PRIVATE_URLS_IN_TEST: 'true' }, true),
        (error: unknown) =>
          error instanceof ConfigError &&
          error.variables.includes('WEBHOOK_ALLOW_PRIVATE_URLS_IN_TEST') &&
          /live environment/.test(error.message),
        JSON.stringify(live),
      );
    }
  });

  test('an explicit value wins where the live environment is not configured', () => {
    assert.equal(allowed({ WEBHOOK_ALLOW_PRIVATE_URLS_IN_TEST: 'true' }), true);
    assert.equal(allowed({ WEBHOOK_ALLOW_PRIVATE_URLS_IN_TEST: 'false' }, true), false);
  });
});
