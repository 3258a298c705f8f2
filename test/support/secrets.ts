/**
 * The secrets a configuration with the live environment must set (src/platform/config/config.ts refuses to start
 * without them): for tests that configure live chains or keys. Test-only values.
 */
export const LIVE_TEST_SECRETS = {
  DATA_ENCRYPTION_KEY: '11'.repeat(32),
  USER_TOKEN_KEY: '22'.repeat(32),
  WALLET_MASTER_SECRET: 'wallet-master-secret-of-the-test-suite-0123456789',
  CUSTODY_MASTER_SECRET: 'custody-master-secret-of-the-test-suite-0123456789',
};
