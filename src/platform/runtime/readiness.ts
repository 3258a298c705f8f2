import type { Client } from '@temporalio/client';
import { type Config, ENVIRONMENTS } from '../config/config.ts';

/** A dependency the service needs to do useful work; throws (with a message safe to show) when it is not usable. */
export type ReadinessCheck = () => Promise<void>;

const RPC_TIMEOUT_MS = 2_500;

/** One chain as readiness sees it: its RPC endpoints (failover list), the chain id and contract we expect. */
export interface ChainTarget {
  rpcUrls: string[];
  /** Unset: any chain id (the development anvil). */
  chainId?: number | undefined;
  contractAddress?: string | undefined;
}

/** CHAIN_RPC_URL_* may hold one URL or a comma-separated list of endpoints for failover. */
export function rpcUrlsOf(setting: string | readonly string[] | undefined): string[] {
  if (!setting) return [];
  const list = typeof setting === 'string' ? setting.split(',') : [...setting];
  return list.map((url) => url.trim()).filter((url) => url.length > 0);
}

/** One JSON-RPC call with the probe's timeout; errors never carry the URL. */
export async function rpc(url: string, method: string, params: unknown[]): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    signal: AbortSignal.timeout(RPC_TIMEOUT_MS),
  });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const answer = (await response.json()) as { result?: unknown; error?: { message?: string } };
  if (answer.error) throw new Error(`${method} failed`);
  return answer.result;
}

/** Why an endpoint failed, without its URL (RPC URLs of hosted nodes carry API keys). */
export function reason(error: unknown): string {
  const { name, message, cause } = error as { name?: string; message?: string; cause?: { code?: string } };
  if (name === 'TimeoutError') return `no answer within ${RPC_TIMEOUT_MS} ms`;
  if (cause?.code) return cause.code;
  return message && !/https?:\/\//.test(message) ? message : 'unreachable';
}

/**
 * Ready when at least one endpoint answers, serves the expected chain id and (when the contract address is
 * configured) has the passport contract's code.
 */
export function chainCheck(target: ChainTarget): ReadinessCheck {
  return async () => {
    const failures: string[] = [];
    for (const [index, url] of target.rpcUrls.entries()) {
      const label = target.rpcUrls.length > 1 ? `endpoint ${index + 1}: ` : '';
      try {
        const chainId = Number.parseInt(String(await rpc(url, 'eth_chainId', [])), 16);
        if (target.chainId !== undefined && chainId !== target.chainId) {
          failures.push(`${label}chain id ${chainId}, expected ${target.chainId}`);
          continue;
        }
        if (target.contractAddress) {
          const code = await rpc(url, 'eth_getCode', [target.contractAddress, 'latest']);
          if (typeof code !== 'string' || code === '0x') {
            failures.push(`${label}no contract at ${target.contractAddress}`);
            continue;
          }
        }
        return;
      } catch (error) {
        failures.push(`${label}${reason(error)}`);
      }
    }
    throw new Error(failures.join('; ') || 'no RPC endpoint configured');
  };
}

/** A check per environment with CHAIN_RPC_URL_* configured: `chain:live`, `chain:test`. */
export function chainReadiness(config: Config): Record<string, ReadinessCheck> {
  const checks: Record<string, ReadinessCheck> = {};
  for (const environment of ENVIRONMENTS) {
    const settings = config.chain[environment];
    const rpcUrls = rpcUrlsOf(settings.rpcUrl);
    if (rpcUrls.length === 0) continue;
    checks[`chain:${environment}`] = chainCheck({
      rpcUrls,
      chainId: config.credentials.chainIds[environment],
      contractAddress: settings.contractAddress,
    });
  }
  return checks;
}

/** The Temporal cluster answers for our namespace (within the probe's time: no retries left running after it). */
export function temporalCheck(client: Client): ReadinessCheck {
  return async () => {
    await client.withDeadline(Date.now() + RPC_TIMEOUT_MS, () =>
      client.workflowService.describeNamespace({ namespace: client.options.namespace }),
    );
  };
}
