import { computeAddress, formatEther, parseEther } from 'ethers';
import { type Config, ENVIRONMENTS, type Environment } from '../config/config.ts';
import type { Orm } from '../db/orm.ts';
import type { Logger } from '../logging/logger.ts';
import { reason, rpc, rpcUrlsOf } from '../runtime/readiness.ts';
import { registerScrapedLabelledGauge } from './metrics.ts';

/**
 * The funded-balance alarm: the platform signer of each configured chain pays every transaction's gas, so an
 * operator must see its balance fall before writes stop. Read from the chain when asked (a Prometheus scrape,
 * a /readyz probe), at most once per `cacheMs` per process, so probes every few seconds cost one RPC round.
 *
 * - `low`: below CHAIN_SIGNER_MIN_BALANCE_* (the operator's refill threshold);
 * - `empty`: below what one contract call of TRANSACTION_GAS costs at the chain's current gas price, i.e. the
 *   signer cannot send (mints, anchors, resales and recycles of that environment wait until it is refilled).
 */
export type SignerBalanceState = 'ok' | 'low' | 'empty';

export interface SignerBalance {
  environment: Environment;
  signer: string;
  wei: bigint;
  minimumWei: bigint;
  /** One contract call of TRANSACTION_GAS at the gas price when read: below it the signer is `empty`. */
  oneTransactionWei: bigint;
  state: SignerBalanceState;
}

/**
 * Gas of one ordinary write (the chain bench measured 250,346 for a single mint, 219,801 per passport in a
 * batch); the "empty" line is this at the current gas price.
 */
export const TRANSACTION_GAS = 300_000n;

interface Target {
  environment: Environment;
  rpcUrls: string[];
  /** From CHAIN_PRIVATE_KEY_* when this process holds it; otherwise the signers the manager recorded. */
  signer: string | undefined;
  minimumWei: bigint;
}

export interface SignerBalanceOptions {
  cacheMs?: number;
  /** While a signer stays low, the warning is repeated this often (and at once when it gets worse). */
  warnEveryMs?: number;
  /** To find the signer addresses when this process has no CHAIN_PRIVATE_KEY_* (the transaction manager's). */
  orm?: Orm;
}

type Reading = { balances: SignerBalance[]; failures: Map<Environment, string> };

export class SignerBalances {
  private readonly targets: Target[];
  private cached: { at: number; reading: Promise<Reading> } | undefined;
  private readonly warned = new Map<string, { at: number; state: SignerBalanceState }>();
  private readonly logger: Logger;
  private readonly options: SignerBalanceOptions;

  constructor(config: Config, logger: Logger, options: SignerBalanceOptions = {}) {
    this.logger = logger;
    this.options = options;
    this.targets = ENVIRONMENTS.flatMap((environment) => {
      const settings = config.chain[environment];
      const rpcUrls = rpcUrlsOf(settings.rpcUrl);
      if (rpcUrls.length === 0) return [];
      return [
        {
          environment,
          rpcUrls,
          signer: settings.privateKey ? computeAddress(settings.privateKey) : undefined,
          minimumWei: parseEther(settings.signerMinBalance),
        },
      ];
    });
  }

  get configured(): boolean {
    return this.targets.length > 0;
  }

  /** Every signer's balance (cached for `cacheMs`); chains that did not answer are in `failures`. */
  read(): Promise<Reading> {
    const now = Date.now();
    if (!this.cached || now - this.cached.at >= (this.options.cacheMs ?? 5_000)) {
      this.cached = { at: now, reading: this.readNow() };
    }
    return this.cached.reading;
  }

  /**
   * Reads every `intervalMs` so the warning line is logged even where nobody scrapes (the worker); the timer
   * does not keep the process alive.
   */
  watch(intervalMs = 60_000): void {
    if (!this.configured) return;
    const tick = () => void this.read().catch(() => undefined);
    tick();
    setInterval(tick, intervalMs).unref();
  }

  /** /readyz detail: one line per signer that is low or empty (never a reason to be unready). */
  async warnings(): Promise<Record<string, string>> {
    const { balances } = await this.read();
    const warnings: Record<string, string> = {};
    for (const balance of balances) {
      if (balance.state === 'ok') continue;
      warnings[`signer:${balance.environment}:${balance.signer}`] = describe(balance);
    }
    return warnings;
  }

  /** dpp_chain_signer_balance_wei / dpp_chain_signer_min_balance_wei / dpp_chain_signer_empty at scrape time. */
  registerMetrics(): void {
    if (!this.configured) return;
    registerScrapedLabelledGauge(
      'dpp_chain_signer_balance_wei',
      'Balance of the platform signer that pays gas, per environment and signer address (wei).',
      ['environment', 'signer'],
      async () =>
        (await this.read()).balances.map((b) => ({
          labels: { environment: b.environment, signer: b.signer },
          value: Number(b.wei),
        })),
    );
    registerScrapedLabelledGauge(
      'dpp_chain_signer_min_balance_wei',
      'The refill threshold CHAIN_SIGNER_MIN_BALANCE_* per environment (wei); alert on balance < this.',
      ['environment'],
      async () =>
        this.targets.map((t) => ({ labels: { environment: t.environment }, value: Number(t.minimumWei) })),
    );
    registerScrapedLabelledGauge(
      'dpp_chain_signer_empty',
      '1 when the signer cannot pay for one contract call at the current gas price (its writes wait), else 0.',
      ['environment', 'signer'],
      async () =>
        (await this.read()).balances.map((b) => ({
          labels: { environment: b.environment, signer: b.signer },
          value: b.state === 'empty' ? 1 : 0,
        })),
    );
  }

  private async readNow(): Promise<Reading> {
    const balances: SignerBalance[] = [];
    const failures = new Map<Environment, string>();
    await Promise.all(
      this.targets.map(async (target) => {
        try {
          balances.push(...(await this.readTarget(target)));
        } catch (error) {
          failures.set(target.environment, reason(error));
        }
      }),
    );
    for (const balance of balances) this.logState(balance);
    return { balances, failures };
  }

  private async readTarget(target: Target): Promise<SignerBalance[]> {
    let lastError: unknown;
    for (const url of target.rpcUrls) {
      try {
        const signers = target.signer ? [target.signer] : await this.recordedSigners(url);
        if (signers.length === 0) return [];
        const gasPrice = BigInt(String(await rpc(url, 'eth_gasPrice', [])));
        const emptyBelow = gasPrice * TRANSACTION_GAS;
        return await Promise.all(
          signers.map(async (signer) => {
            const wei = BigInt(String(await rpc(url, 'eth_getBalance', [signer, 'latest'])));
            const state: SignerBalanceState =
              wei === 0n || wei < emptyBelow ? 'empty' : wei < target.minimumWei ? 'low' : 'ok';
            return {
              environment: target.environment,
              signer,
              wei,
              minimumWei: target.minimumWei,
              oneTransactionWei: emptyBelow,
              state,
            };
          }),
        );
      } catch (error) {
        lastError = error;
      }
    }
    throw lastError ?? new Error('no RPC endpoint configured');
  }

  /** The signers the transaction manager has sent for on this chain (API processes need no private key). */
  private async recordedSigners(url: string): Promise<string[]> {
    if (!this.options.orm) return [];
    const chainId = BigInt(String(await rpc(url, 'eth_chainId', [])));
    const rows = await this.options.orm.em
      .getConnection()
      .execute<{ address: string }[]>(
        'select address from chain_signers where chain_id = ? order by address',
        [chainId.toString()],
      );
    return rows.map((row) => row.address);
  }

  /** One warning when a signer turns low or empty, repeated every `warnEveryMs` while it stays so. */
  private logState(balance: SignerBalance): void {
    const key = `${balance.environment}:${balance.signer}`;
    const previous = this.warned.get(key);
    const fields = {
      environment: balance.environment,
      signer: balance.signer,
      balance: formatEther(balance.wei),
      minimum: formatEther(balance.minimumWei),
      state: balance.state,
    };
    if (balance.state === 'ok') {
      if (previous) {
        this.warned.delete(key);
        this.logger.info(fields, 'chain signer balance is back above its minimum');
      }
      return;
    }
    const now = Date.now();
    const worse = previous?.state === 'low' && balance.state === 'empty';
    if (previous && !worse && now - previous.at < (this.options.warnEveryMs ?? 600_000)) return;
    this.warned.set(key, { at: now, state: balance.state });
    this.logger.warn(fields, `chain signer balance ${balance.state}: ${describe(balance)}`);
  }
}

function describe(balance: SignerBalance): string {
  return balance.state === 'empty'
    ? `empty: balance ${formatEther(balance.wei)} is less than one transaction at the current gas price (${formatEther(balance.oneTransactionWei)}); chain writes of ${balance.environment} wait until it is refilled`
    : `low: balance ${formatEther(balance.wei)} is below the minimum ${formatEther(balance.minimumWei)} (CHAIN_SIGNER_MIN_BALANCE_${balance.environment.toUpperCase()}); refill it`;
}
