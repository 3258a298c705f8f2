export {
  ANVIL_CHAIN_ID,
  ANVIL_MNEMONIC,
  type AnvilAccount,
  type AnvilInstance,
  anvilAccounts,
  findAnvilBinary,
  type StartAnvilOptions,
  startAnvil,
} from './anvil.ts';
export { createChainProvider } from './chain-provider.ts';
export { chipHash } from './chip-hash.ts';
export { loadPassportArtifact, type PassportArtifact } from './compile.ts';
export {
  type DeployedPassport,
  deployPassport,
  ensurePassportDeployment,
  type PassportRoles,
} from './deployment.ts';
export { openPassportChains, type PassportChains } from './environment-chains.ts';
export {
  type EnvironmentContract,
  type EnvironmentContracts,
  ensureEnvironmentContracts,
} from './environment-contracts.ts';
export { ChainRevert, decodeRevert, isChainRevert } from './errors.ts';
export { PassportChain } from './passport-chain.ts';
export { PassportReader } from './passport-reader.ts';
export type {
  MintRecord,
  MintRequest,
  PassportChainOptions,
  PassportEvent,
  TokenIdInput,
  TransactionOutcome,
  TxResult,
  WriteOptions,
} from './passport-types.ts';
export { type NonceStats, PassportWriter } from './passport-writer.ts';
export { TransactionTimeoutError } from './receipt-wait.ts';
export { toTokenId } from './token-id.ts';
