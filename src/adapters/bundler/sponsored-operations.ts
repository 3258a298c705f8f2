import { type BaseWallet, Contract, Interface } from 'ethers';
import type { ReorgChange } from '../chain/transaction-types.ts';
import { entryPointArtifact } from './account-contracts.ts';
import { BundlerRpcError } from './bundler-client.ts';
import { type OperationContext, prepareSponsoredOperation } from './smart-account-operation.ts';
import { userOperationHash } from './user-operation.ts';
import type { UserOperationRecord, UserOperationStore } from './user-operation-store.ts';

/** The sponsorship policy's limits: sponsored operations per rolling day (docs/smart-accounts.md). */
export interface SponsorshipBudget {
  companyPerDay: number;
  personPerDay: number;
}

export const DEFAULT_SPONSORSHIP_BUDGET: SponsorshipBudget = { companyPerDay: 10_000, personPerDay: 20 };

/** The policy refuses to pay: the company's or the person's budget for the day is spent. */
export class SponsorshipRefused extends Error {
  readonly scope: 'company' | 'person';
  constructor(scope: 'company' | 'person', limit: number) {
    super(`sponsorship refused: the ${scope}'s budget of ${limit} sponsored operations a day is spent`);
    this.name = 'SponsorshipRefused';
    this.scope = scope;
  }
}

/** The operation was included but its call reverted (the account's call to the target failed). */
export class SponsoredCallReverted extends Error {
  readonly userOpHash: string;
  constructor(userOpHash: string, txHash: string) {
    super(`user operation ${userOpHash} was included in ${txHash} but its call reverted`);
    this.name = 'SponsoredCallReverted';
    this.userOpHash = userOpHash;
  }
}

export interface SponsoredRequest {
  /** One business operation (e.g. `claim:<environment>:<token>:<resale>`): executed at most once. */
  idempotencyKey: string;
  purpose: string;
  companyId: string | null;
  owner: BaseWallet;
  target: string;
  data: string;
}

export interface SponsoredOutcome {
  userOpHash: string;
  sender: string;
  txHash: string;
  blockNumber: number;
  actualGasCost: bigint;
}

const entryPointEvents = new Interface(entryPointArtifact.abi);
const DAY_MS = 86_400_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Sponsored operations of the people's smart accounts, with the transaction manager's rigour: recorded before the
 * bundler sees them, one per idempotency key, followed until included (confirmed by the EntryPoint's
 * UserOperationEvent on chain, not only by the bundler's word), sent again when the bundler lost them (dropped)
 * or their block left the chain (reorged). The nonce key derives from the idempotency key, so the chain runs each
 * business operation at most once whatever is resent.
 */
export class SponsoredOperations {
  readonly ctx: OperationContext;
  readonly #store: UserOperationStore;
  readonly #budget: SponsorshipBudget;
  readonly #pollMs: number;
  readonly #timeoutMs: number;
  readonly #confirmations: number;
  readonly #reconcile: ((change: ReorgChange) => Promise<void>) | undefined;

  constructor(options: {
    ctx: OperationContext;
    store: UserOperationStore;
    budget?: SponsorshipBudget;
    pollIntervalMs?: number;
    timeoutMs?: number;
    confirmations?: number;
    /** Points the records that named a reorged transaction of an operation at the one it ran in again. */
    reconcile?: (change: ReorgChange) => Promise<void>;
  }) {
    this.ctx = options.ctx;
    this.#store = options.store;
    this.#budget = options.budget ?? DEFAULT_SPONSORSHIP_BUDGET;
    this.#pollMs = options.pollIntervalMs ?? 500;
    this.#timeoutMs = options.timeoutMs ?? 120_000;
    this.#confirmations = options.confirmations ?? 1;
    this.#reconcile = options.reconcile;
  }

  async execute(request: SponsoredRequest): Promise<SponsoredOutcome> {
    let record = await this.#store.find(request.idempotencyKey);
    if (!record) {
      await this.#checkBudget(request);
      const operation = await prepareSponsoredOperation(this.ctx, {
        owner: request.owner,
        target: request.target,
        data: request.data,
        idempotencyKey: request.idempotencyKey,
      });
      record =
        (await this.#store.insert({
          idempotencyKey: request.idempotencyKey,
          purpose: request.purpose,
          companyId: request.companyId,
          owner: request.owner.address,
          entryPoint: this.ctx.entryPoint,
          operation,
          userOpHash: userOperationHash(operation, this.ctx.entryPoint, this.ctx.chainId),
        })) ?? (await this.#store.find(request.idempotencyKey));
      if (!record) throw new Error(`user operation ${request.idempotencyKey} vanished after its insert`);
    }
    return this.#drive(record, request);
  }

  async #checkBudget(request: SponsoredRequest): Promise<void> {
    const used = await this.#store.countSince(new Date(Date.now() - DAY_MS), {
      companyId: request.companyId,
      owner: request.owner.address,
    });
    if (request.companyId !== null && used.company >= this.#budget.companyPerDay)
      throw new SponsorshipRefused('company', this.#budget.companyPerDay);
    if (used.owner >= this.#budget.personPerDay)
      throw new SponsorshipRefused('person', this.#budget.personPerDay);
  }

  /** The EntryPoint's UserOperationEvent for this sender and nonce: the chain's own word that it ran. */
  async #findOnChain(record: UserOperationRecord) {
    const topic = entryPointEvents.getEvent('UserOperationEvent')!.topicHash;
    const logs = await this.ctx.provider.getLogs({
      address: this.ctx.entryPoint,
      topics: [topic, null, `0x${record.sender.slice(2).toLowerCase().padStart(64, '0')}`],
      fromBlock: 0,
    });
    for (const log of logs) {
      const event = entryPointEvents.parseLog(log);
      if (event && (event.args.nonce as bigint) === record.nonce)
        return {
          userOpHash: event.args.userOpHash as string,
          success: event.args.success as boolean,
          actualGasCost: event.args.actualGasCost as bigint,
          txHash: log.transactionHash,
          blockNumber: log.blockNumber,
          blockHash: log.blockHash,
        };
    }
    return undefined;
  }

  async #nonceUsed(record: UserOperationRecord): Promise<boolean> {
    const entryPoint = new Contract(this.ctx.entryPoint, entryPointArtifact.abi, this.ctx.provider);
    return (
      ((await entryPoint.getFunction('getNonce')(record.sender, record.nonce >> 64n)) as bigint) >
      record.nonce
    );
  }

  /** Sends the operation again; refused and with `request` (the owner's key), signs it again under its nonce. */
  async #send(
    record: UserOperationRecord,
    request: SponsoredRequest | undefined,
  ): Promise<UserOperationRecord> {
    try {
      await this.ctx.bundler.sendUserOperation(record.operation);
    } catch (error) {
      if (!(error instanceof BundlerRpcError)) throw error; // unreachable: try again on the next round
      if (/already|known|duplicate/i.test(error.message)) return record;
      if (!request) throw error;
      // Expired sponsorship, fees below the bundler's floor, a changed estimate: sign it again under the same nonce.
      await this.#store.markError(record.id, error.message);
      const operation = await prepareSponsoredOperation(this.ctx, {
        owner: request.owner,
        target: request.target,
        data: request.data,
        idempotencyKey: request.idempotencyKey,
      });
      const userOpHash = userOperationHash(operation, this.ctx.entryPoint, this.ctx.chainId);
      await this.#store.replace(record.id, operation, userOpHash);
      await this.ctx.bundler.sendUserOperation(operation);
      record = { ...record, operation, userOpHash };
    }
    await this.#store.markSent(record.id);
    return { ...record, state: 'sent' };
  }

  /**
   * One look at an operation against the chain: its outcome once included deep enough (recorded, and the records
   * naming an earlier, reorged transaction of it reconciled); otherwise the record, marked reorged when its block
   * left the chain or dropped when the bundler forgot it, and then sent again. Without `request` (the monitor,
   * which holds no owner key) an operation the bundler refuses stays as it is, its error recorded.
   */
  async advance(
    start: UserOperationRecord,
    request?: SponsoredRequest,
  ): Promise<{ record: UserOperationRecord; outcome?: SponsoredOutcome }> {
    let record = start;
    const found = await this.#findOnChain(record);
    if (found) {
      const head = await this.ctx.provider.getBlockNumber();
      if (head - found.blockNumber + 1 >= this.#confirmations) {
        const state = found.success ? 'included' : 'reverted';
        if (record.state !== state || record.blockHash !== found.blockHash) {
          const fromHashes = record.txHashes.filter((hash) => hash !== found.txHash);
          if (fromHashes.length > 0 && this.#reconcile) await this.#reconcile({ fromHashes, ...found });
          await this.#store.markFinal(record.id, { state, ...found });
          record = { ...record, state, txHash: found.txHash, blockHash: found.blockHash };
          record.blockNumber = found.blockNumber;
        }
        if (!found.success) throw new SponsoredCallReverted(found.userOpHash, found.txHash);
        const { userOpHash, txHash, blockNumber, actualGasCost } = found;
        return { record, outcome: { userOpHash, sender: record.sender, txHash, blockNumber, actualGasCost } };
      }
    } else if (record.state === 'included' || record.state === 'reverted') {
      if (!(await this.#store.markLost(record, 'reorged', `block ${record.blockNumber} left the chain`)))
        return { record: (await this.#store.find(record.idempotencyKey)) ?? record };
      record = { ...record, state: 'reorged', txHash: null, blockNumber: null, blockHash: null };
    } else if (record.state === 'sent' && !(await this.#nonceUsed(record))) {
      const known = await this.ctx.bundler.getUserOperationByHash(record.userOpHash).catch(() => undefined);
      if (known === null) {
        if (!(await this.#store.markLost(record, 'dropped', 'the bundler no longer knows the operation')))
          return { record: (await this.#store.find(record.idempotencyKey)) ?? record };
        record = { ...record, state: 'dropped' };
      }
    }
    if (record.state === 'signed' || record.state === 'dropped' || record.state === 'reorged') {
      try {
        record = await this.#send(record, request);
      } catch (error) {
        await this.#store.markError(record.id, (error as Error).message);
      }
    }
    return { record };
  }

  async #drive(start: UserOperationRecord, request: SponsoredRequest): Promise<SponsoredOutcome> {
    let record = start;
    const deadline = Date.now() + this.#timeoutMs;
    for (;;) {
      const step = await this.advance(record, request);
      if (step.outcome) return step.outcome;
      record = step.record;
      if (Date.now() > deadline)
        throw new Error(
          `user operation ${record.userOpHash} (${request.idempotencyKey}) not included in time`,
        );
      await sleep(this.#pollMs);
    }
  }
}
