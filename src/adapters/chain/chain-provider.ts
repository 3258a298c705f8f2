import type { JsonRpcProvider } from 'ethers';
import { JsonRpcProvider as Provider } from 'ethers';
import { FailoverJsonRpcProvider, rpcUrlList } from './failover-provider.ts';

/**
 * ethers provider settings that behave against anvil and real nodes alike. `rpcUrl` may list several endpoints
 * of the chain separated by commas (CHAIN_RPC_URL_*): then a FailoverJsonRpcProvider moves to the next one when
 * the current one cannot be reached.
 */
export function createChainProvider(rpcUrl: string, pollIntervalMs = 1_000): JsonRpcProvider {
  const urls = rpcUrlList(rpcUrl);
  // cacheTimeout -1: no 250 ms response cache (it returns stale pending nonces and receipts).
  const options = {
    staticNetwork: true,
    cacheTimeout: -1,
    pollingInterval: pollIntervalMs,
    // No 10 ms batching window: each send would wait it out.
    batchMaxCount: 1,
  };
  return urls.length > 1
    ? new FailoverJsonRpcProvider(urls, options)
    : new Provider(urls[0], undefined, options);
}
