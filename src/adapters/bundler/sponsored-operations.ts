import { type BaseWallet, Contract, Interface } from 'ethers';
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

  constructor(options: {
    ctx: OperationContext;
    store: UserOperationStore;
    budget?: SponsorshipBudget;
    pollIntervalMs?: number;
    timeoutMs?: number;
    confirmations?: number;
  }) {
    this.ctx = options.ctx;
    this.#store = options.store;
    this.#budget = options.budget ?? DEFAULT_SPONSORSHIP_BUDGET;
    this.#pollMs = options.pollIntervalMs ?? 500;
    this.#timeoutMs = options.timeoutMs ?? 120_000;
    this.#confirmations = options.confirmations ?? 1;
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

  async #send(record: UserOperationRecord, request: SponsoredRequest): Promise<UserOperationRecord> {
    try {
      await this.ctx.bundler.sendUserOperation(record.operation);
    } catch (error) {
      if (!(error instanceof BundlerRpcError)) throw error; // unreachable: try again on the next round
      if (/already|known|duplicate/i.test(error.message)) return record;
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

  async #drive(start: UserOperationRecord, request: SponsoredRequest): Promise<SponsoredOutcome> {
    let record = start;
    const deadline = Date.now() + this.#timeoutMs;
    for (;;) {
      const found = await this.#findOnChain(record);
      if (found) {
        const head = await this.ctx.provider.getBlockNumber();
        if (head - found.blockNumber + 1 >= this.#confirmations) {
          const state = found.success ? 'included' : 'reverted';
          if (record.state !== state || record.blockHash !== found.blockHash)
            await this.#store.markFinal(record.id, { state, ...found });
          if (!found.success) throw new SponsoredCallReverted(found.userOpHash, found.txHash);
          return {
            userOpHash: found.userOpHash,
            sender: record.sender,
            txHash: found.txHash,
            blockNumber: found.blockNumber,
            actualGasCost: found.actualGasCost,
          };
        }
      } else if (record.state === 'included' || record.state === 'reverted') {
        await this.#store.markLost(record.id, 'reorged', `block ${record.blockNumber} left the chain`);
        record = { ...record, state: 'reorged' };
      } else if (record.state === 'sent' && !(await this.#nonceUsed(record))) {
        const known = await this.ctx.bundler.getUserOperationByHash(record.userOpHash).catch(() => undefined);
        if (known === null) {
          await this.#store.markLost(record.id, 'dropped', 'the bundler no longer knows the operation');
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
      if (Date.now() > deadline)
        throw new Error(
          `user operation ${record.userOpHash} (${request.idempotencyKey}) not included in time`,
        );
      await sleep(this.#pollMs);
    }
  }
}
