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
export { chipHash } from './chip-hash.ts';
export { loadPassportArtifact, type PassportArtifact } from './compile.ts';
export {
  type DeployedPassport,
  deployPassport,
  ensurePassportDeployment,
  type PassportRoles,
} from './deployment.ts';
export { openPassportChains, type PassportChains } from './environment-chains.ts';
export { ChainRevert, decodeRevert, isChainRevert } from './errors.ts';
export { NonceManager } from './nonce-errors.ts';
export {
  createChainProvider,
  type MintRecord,
  type MintRequest,
  PassportChain,
  type PassportChainOptions,
  type PassportEvent,
  type TokenIdInput,
  type TransactionOutcome,
  type TxResult,
  toTokenId,
  type WriteOptions,
} from './passport-chain.ts';
export { TransactionTimeoutError } from './receipt-wait.ts';
