import { formatEther, parseEther, zeroPadValue } from 'ethers';
import { type Config, ENVIRONMENTS, type Environment } from '../config/config.ts';
import type { Logger } from '../logging/logger.ts';
import { reason, rpc, rpcUrlsOf } from '../runtime/readiness.ts';
import { registerScrapedLabelledGauge } from './metrics.ts';

/**
 * The paymaster's deposit at the EntryPoint pays every sponsored operation (docs/smart-accounts.md), so it is
 * watched like the platform signers' balances (signer-balance.ts): a gauge per environment and a warning when it
 * falls below PAYMASTER_MIN_DEPOSIT_*. Read when asked, at most once per `cacheMs`.
 */
export interface PaymasterDeposit {
  environment: Environment;
  paymaster: string;
  wei: bigint;
  minimumWei: bigint;
  low: boolean;
}

interface Target {
  environment: Environment;
  rpcUrls: string[];
  entryPoint: string;
  paymaster: string;
  minimumWei: bigint;
}

const BALANCE_OF = '0x70a08231'; // EntryPoint.balanceOf(address): the deposit

export class PaymasterDeposits {
  private readonly targets: Target[];
  private cached: { at: number; reading: Promise<PaymasterDeposit[]> } | undefined;
  private readonly lowSince = new Map<Environment, number>();
  private readonly logger: Logger;
  private readonly cacheMs: number;

  constructor(config: Config, entryPoint: string, logger: Logger, cacheMs = 5_000) {
    this.logger = logger;
    this.cacheMs = cacheMs;
    this.targets = ENVIRONMENTS.flatMap((environment) => {
      const settings = config.chain[environment];
      const rpcUrls = rpcUrlsOf(settings.rpcUrl);
      const paymaster = settings.accounts.paymasterAddress;
      if (rpcUrls.length === 0 || !paymaster) return [];
      const minimumWei = parseEther(settings.accounts.paymasterMinDeposit);
      return [{ environment, rpcUrls, entryPoint, paymaster, minimumWei }];
    });
  }

  get configured(): boolean {
    return this.targets.length > 0;
  }

  read(): Promise<PaymasterDeposit[]> {
    const now = Date.now();
    if (!this.cached || now - this.cached.at >= this.cacheMs)
      this.cached = { at: now, reading: this.readNow() };
    return this.cached.reading;
  }

  /** /readyz detail: a line per paymaster below its minimum (never a reason to be unready). */
  async warnings(): Promise<Record<string, string>> {
    const warnings: Record<string, string> = {};
    for (const deposit of await this.read())
      if (deposit.low) warnings[`paymaster:${deposit.environment}:${deposit.paymaster}`] = describe(deposit);
    return warnings;
  }

  /** dpp_paymaster_deposit_wei and dpp_paymaster_min_deposit_wei at scrape time. */
  registerMetrics(): void {
    if (!this.configured) return;
    registerScrapedLabelledGauge(
      'dpp_paymaster_deposit_wei',
      'Deposit of our paymaster at the EntryPoint, which pays sponsored user operations (wei).',
      ['environment', 'paymaster'],
      async () =>
        (await this.read()).map((d) => ({
          labels: { environment: d.environment, paymaster: d.paymaster },
          value: Number(d.wei),
        })),
    );
    registerScrapedLabelledGauge(
      'dpp_paymaster_min_deposit_wei',
      'The refill threshold PAYMASTER_MIN_DEPOSIT_* per environment (wei); alert on deposit < this.',
      ['environment'],
      async () =>
        this.targets.map((t) => ({ labels: { environment: t.environment }, value: Number(t.minimumWei) })),
    );
  }

  private async readNow(): Promise<PaymasterDeposit[]> {
    const deposits = await Promise.all(
      this.targets.map(async (target) => {
        try {
          const data = `${BALANCE_OF}${zeroPadValue(target.paymaster, 32).slice(2)}`;
          const wei = BigInt(
            String(await rpc(target.rpcUrls[0]!, 'eth_call', [{ to: target.entryPoint, data }, 'latest'])),
          );
          return {
            environment: target.environment,
            paymaster: target.paymaster,
            wei,
            minimumWei: target.minimumWei,
            low: wei < target.minimumWei,
          };
        } catch (error) {
          this.logger.warn(
            { environment: target.environment, error: reason(error) },
            'paymaster deposit unreadable',
          );
          return undefined;
        }
      }),
    );
    const read = deposits.filter((d): d is PaymasterDeposit => d !== undefined);
    for (const deposit of read) this.logState(deposit);
    return read;
  }

  private logState(deposit: PaymasterDeposit): void {
    if (!deposit.low) {
      if (this.lowSince.delete(deposit.environment))
        this.logger.info({ environment: deposit.environment }, 'paymaster deposit is back above its minimum');
      return;
    }
    const since = this.lowSince.get(deposit.environment);
    if (since !== undefined && Date.now() - since < 600_000) return;
    this.lowSince.set(deposit.environment, Date.now());
    this.logger.warn(
      { environment: deposit.environment, paymaster: deposit.paymaster, deposit: formatEther(deposit.wei) },
      `paymaster deposit low: ${describe(deposit)}`,
    );
  }
}

function describe(deposit: PaymasterDeposit): string {
  return `deposit ${formatEther(deposit.wei)} is below the minimum ${formatEther(deposit.minimumWei)} (PAYMASTER_MIN_DEPOSIT_${deposit.environment.toUpperCase()}); top it up (EntryPoint.depositTo) or sponsored claims stop`;
}
