import type { ErrorDescription, Interface } from 'ethers';
import { isError } from 'ethers';

/** Human wording for the contract's own errors; argument values are appended by `ChainRevert`. */
const DESCRIPTIONS: Record<string, string> = {
  ChipAlreadyMinted: 'this chip already has a passport',
  UnknownToken: 'no passport with this token id',
  TokenIsRecycled: 'the passport is recycled and frozen',
  AlreadyRecycled: 'the passport was already recycled (deposit released)',
  NoClaimAuthorized: 'no ownership claim is authorized for this token',
  NotAuthorizedClaimant: 'this account is not the one authorized to claim the token',
  NotMinterOrAdmin: 'the platform signer has neither the minter nor the admin role',
  DepositTransferFailed: 'the reward receiver did not accept the deposit',
  InvalidChipHash: 'the chip hash is zero',
  EmptyMetadataUri: 'the metadata URI is empty',
  EmptyAction: 'the supply-chain action is empty',
  ZeroAddress: 'an address argument is the zero address',
  AccessControlUnauthorizedAccount: 'the platform signer lacks the required role',
  ERC721NonexistentToken: 'no passport with this token id',
  ERC721InvalidReceiver: 'the token cannot be sent to this address',
  ReentrancyGuardReentrantCall: 'reentrant call refused',
  MintDataTooLarge:
    'the passports of one mint transaction exceed one record (24,576 bytes): send fewer at once',
  DepositTooLarge: 'the deposit does not fit in 96 bits',
};

/**
 * The contract refused the call (a custom error, `Error(string)` or a panic). Retrying the same call
 * fails the same way. `name` is the Solidity error name, so a Temporal activity failure carries it
 * as its type (usable in `nonRetryableErrorTypes`).
 */
export class ChainRevert extends Error {
  readonly code = 'CHAIN_REVERT';
  /** Named arguments (bigints for integers, 0x strings for addresses and bytes). */
  readonly args: Record<string, unknown>;
  readonly selector: string | undefined;
  readonly txHash: string | undefined;

  constructor(init: {
    name: string;
    args?: Record<string, unknown>;
    selector?: string;
    txHash?: string;
    detail?: string;
  }) {
    const args = init.args ?? {};
    const shownArgs = Object.entries(args)
      .map(([key, value]) => `${key}=${String(value)}`)
      .join(', ');
    const description = init.detail ?? DESCRIPTIONS[init.name] ?? 'the contract reverted';
    super(`${init.name}(${shownArgs}): ${description}`);
    this.name = init.name;
    this.args = args;
    this.selector = init.selector;
    this.txHash = init.txHash;
  }
}

export function isChainRevert(error: unknown, name?: string): error is ChainRevert {
  return error instanceof ChainRevert && (name === undefined || error.name === name);
}

function namedArgs(description: ErrorDescription): Record<string, unknown> {
  return Object.fromEntries(
    description.fragment.inputs.map((input, i) => [input.name || `arg${i}`, description.args[i]]),
  );
}

/** Finds revert data in an ethers or JSON-RPC error (its shape differs between nodes and paths). */
function revertData(error: unknown): string | undefined {
  const seen = new Set<unknown>();
  const visit = (value: unknown, depth: number): string | undefined => {
    if (depth > 5 || value === null || typeof value !== 'object' || seen.has(value)) return undefined;
    seen.add(value);
    const record = value as Record<string, unknown>;
    const data = record.data;
    if (typeof data === 'string' && /^0x[0-9a-fA-F]{8,}$/.test(data)) return data;
    for (const key of ['data', 'error', 'info', 'cause']) {
      const found = visit(record[key], depth + 1);
      if (found) return found;
    }
    return undefined;
  };
  return visit(error, 0);
}

/**
 * Turns a call/estimate/send failure into a ChainRevert when it is a contract revert; returns
 * undefined for anything else (network, nonce, funds: the caller rethrows those as they are).
 */
export function decodeRevert(
  contractInterface: Interface,
  error: unknown,
  txHash?: string,
): ChainRevert | undefined {
  const data = revertData(error);
  if (data) {
    const parsed = contractInterface.parseError(data);
    if (parsed) {
      if (parsed.name === 'Error') {
        return new ChainRevert({
          name: 'Error',
          args: { message: parsed.args[0] },
          detail: String(parsed.args[0]),
          txHash,
        });
      }
      if (parsed.name === 'Panic') {
        return new ChainRevert({
          name: 'Panic',
          args: { code: parsed.args[0] },
          detail: 'Solidity panic',
          txHash,
        });
      }
      return new ChainRevert({
        name: parsed.name,
        args: namedArgs(parsed),
        selector: parsed.selector,
        txHash,
      });
    }
    return new ChainRevert({ name: 'UnknownError', args: { data }, selector: data.slice(0, 10), txHash });
  }
  if (isError(error, 'CALL_EXCEPTION')) {
    // reverted without data (e.g. out of gas, call to a non-contract address)
    return new ChainRevert({ name: 'CallException', detail: error.shortMessage, txHash });
  }
  return undefined;
}
