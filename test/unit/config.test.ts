import assert from 'node:assert/strict';
import { test } from 'vitest';
import { ConfigError, loadConfig } from '../../src/platform/config/config.ts';
import { LIVE_TEST_SECRETS } from '../support/secrets.ts';

test('defaults give a runnable local configuration', () => {
  const config = loadConfig({});
  assert.equal(config.port, 3000);
  assert.equal(config.database.url, undefined);
  assert.equal(config.publicBaseUrl, 'http://localhost:3000');
  assert.equal(config.temporal.namespace, 'default');
});

test('bad values fail with a message naming each variable', () => {
  assert.throws(
    () => loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', CONTRACT_ADDRESS_LIVE: '0x12' }),
    (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.deepEqual([...error.variables].sort(), ['CONTRACT_ADDRESS_LIVE', 'DATABASE_URL', 'PORT']);
      assert.match(error.message, /PORT: .*\(got "eighty"\)/);
      return true;
    },
  );
});

test('mTLS settings must come in pairs; an API key implies TLS', () => {
  assert.throws(() => loadConfig({ TEMPORAL_TLS_CERT_PATH: '/c.pem' }), /TEMPORAL_TLS_KEY_PATH/);
  assert.equal(loadConfig({ TEMPORAL_API_KEY: 'k' }).temporal.tls, true);
});

test('empty variables count as unset', () => {
  assert.equal(loadConfig({ PORT: '', DATABASE_URL: '' }).port, 3000);
});

test('a live configuration without its secrets does not start, naming each; development says what it uses', () => {
  for (const live of [
    { CHAIN_RPC_URL_LIVE: 'https://rpc.example' },
    { STRIPE_SECRET_KEY_LIVE: 'sk_live_abc' },
    { NODE_ENV: 'production' },
  ]) {
    assert.throws(
      () => loadConfig(live),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.deepEqual(
          [...error.variables].sort(),
          ['CUSTODY_MASTER_SECRET', 'DATA_ENCRYPTION_KEY', 'USER_TOKEN_KEY', 'WALLET_MASTER_SECRET'],
          JSON.stringify(live),
        );
        assert.match(error.message, /live environment is configured/);
        return true;
      },
    );
    const partial = { ...live, ...LIVE_TEST_SECRETS, WALLET_MASTER_SECRET: '' };
    assert.throws(() => loadConfig(partial), /WALLET_MASTER_SECRET/);
    assert.deepEqual(loadConfig({ ...live, ...LIVE_TEST_SECRETS }).secrets.developmentValues, []);
  }
  assert.deepEqual(loadConfig({}).secrets.developmentValues, [
    'DATA_ENCRYPTION_KEY',
    'USER_TOKEN_KEY',
    'WALLET_MASTER_SECRET',
    'CUSTODY_MASTER_SECRET',
  ]);
});

test('SSO may not reach private addresses once the live environment is configured', () => {
  assert.equal(loadConfig({ SSO_ALLOW_PRIVATE_URLS: 'true' }).identity.ssoAllowPrivateUrls, true);
  assert.throws(
    () => loadConfig({ ...LIVE_TEST_SECRETS, NODE_ENV: 'production', SSO_ALLOW_PRIVATE_URLS: 'true' }),
    (error: unknown) => error instanceof ConfigError && error.variables.includes('SSO_ALLOW_PRIVATE_URLS'),
  );
});

test('CHAIN_RPC_URL_* takes a comma-separated list of endpoints (failover order); a bad entry is refused', () => {
  const config = loadConfig({ CHAIN_RPC_URL_TEST: ' https://a.example/rpc , https://b.example/rpc ' });
  assert.equal(config.chain.test.rpcUrl, 'https://a.example/rpc,https://b.example/rpc');
  assert.equal(
    loadConfig({ CHAIN_RPC_URL_TEST: 'https://a.example' }).chain.test.rpcUrl,
    'https://a.example',
  );
  assert.throws(
    () => loadConfig({ CHAIN_RPC_URL_TEST: 'https://a.example,not a url' }),
    (error: unknown) => error instanceof ConfigError && error.variables.includes('CHAIN_RPC_URL_TEST'),
  );
});

test('the transaction manager’s stuck delay and fee cap come from CHAIN_STUCK_AFTER_SECONDS and CHAIN_MAX_FEE_GWEI', () => {
  const defaults = loadConfig({});
  assert.equal(defaults.chain.stuckAfterMs, 30_000);
  assert.equal(defaults.chain.maxFeeGwei, 500);
  const set = loadConfig({ CHAIN_STUCK_AFTER_SECONDS: '12', CHAIN_MAX_FEE_GWEI: '0.5' });
  assert.equal(set.chain.stuckAfterMs, 12_000);
  assert.equal(set.chain.maxFeeGwei, 0.5);
  assert.throws(
    () => loadConfig({ CHAIN_STUCK_AFTER_SECONDS: '0', CHAIN_MAX_FEE_GWEI: '-1' }),
    (error: unknown) =>
      error instanceof ConfigError &&
      error.variables.includes('CHAIN_STUCK_AFTER_SECONDS') &&
      error.variables.includes('CHAIN_MAX_FEE_GWEI'),
  );
});
