import { z } from 'zod';
import type { Environment } from './config.ts';

const ed25519Seed = z
  .string()
  .regex(/^[0-9a-fA-F]{64}$/, 'must be an Ed25519 private key (32-byte seed) as 64 hex digits')
  .optional();
const chainId = z.coerce
  .number()
  .int()
  .min(1)
  .max(2 ** 53 - 1);

/** Environment variables of the public passport (credentials' issuer keys, actor DIDs). */
export const credentialsEnvShape = {
  ISSUER_KEY_LIVE: ed25519Seed,
  ISSUER_KEY_TEST: ed25519Seed,
  CHAIN_ID_LIVE: chainId.default(31337),
  CHAIN_ID_TEST: chainId.default(31337),
};

export interface CredentialsConfig {
  /** Ed25519 seeds that sign each environment's credentials; unset → generated once and kept in the database. */
  issuerKeys: Record<Environment, Buffer | undefined>;
  /** EIP-155 chain id per environment: actors' DIDs are did:pkh:eip155:{chainId}:{address}. */
  chainIds: Record<Environment, number>;
}

type CredentialsEnv = {
  ISSUER_KEY_LIVE?: string | undefined;
  ISSUER_KEY_TEST?: string | undefined;
  CHAIN_ID_LIVE: number;
  CHAIN_ID_TEST: number;
};

export function credentialsConfig(e: CredentialsEnv): CredentialsConfig {
  const seed = (hex: string | undefined) => (hex ? Buffer.from(hex, 'hex') : undefined);
  return {
    issuerKeys: { live: seed(e.ISSUER_KEY_LIVE), test: seed(e.ISSUER_KEY_TEST) },
    chainIds: { live: e.CHAIN_ID_LIVE, test: e.CHAIN_ID_TEST },
  };
}
