import {
  FetchRequest,
  type JsonRpcApiProviderOptions,
  type JsonRpcPayload,
  JsonRpcProvider,
  type JsonRpcResult,
} from 'ethers';

/** `https://a,https://b` → the URLs in failover order. */
export function rpcUrlList(rpcUrl: string | readonly string[]): string[] {
  const urls = (typeof rpcUrl === 'string' ? rpcUrl.split(',') : [...rpcUrl])
    .map((url) => url.trim())
    .filter(Boolean);
  if (urls.length === 0) throw new TypeError('no JSON-RPC URL given');
  return urls;
}

/**
 * A JsonRpcProvider over several endpoints of one chain: requests go to the current endpoint; when it cannot be
 * reached (connection refused or reset, timeout, HTTP 5xx) the same request goes to the next one, which stays
 * current. Answers of the node itself (JSON-RPC errors such as a revert or "nonce too low") are not failures of
 * the endpoint and are returned as they are. Re-sending a transaction that did reach the first endpoint is safe:
 * the next one answers "already known" or finds it mined.
 */
export class FailoverJsonRpcProvider extends JsonRpcProvider {
  readonly urls: readonly string[];
  readonly stats = { failovers: 0 };
  readonly #requestTimeoutMs: number;
  #current = 0;

  constructor(
    urls: readonly string[],
    options: JsonRpcApiProviderOptions & { requestTimeoutMs?: number } = {},
  ) {
    const { requestTimeoutMs, ...providerOptions } = options;
    super(urls[0], undefined, providerOptions);
    if (urls.length === 0) throw new TypeError('FailoverJsonRpcProvider needs at least one URL');
    this.urls = urls;
    this.#requestTimeoutMs = requestTimeoutMs ?? 15_000;
  }

  /** The endpoint requests go to now. */
  get currentUrl(): string {
    return this.urls[this.#current]!;
  }

  override _getConnection(): FetchRequest {
    const request = new FetchRequest(this.currentUrl);
    request.timeout = this.#requestTimeoutMs;
    return request;
  }

  override async _send(payload: JsonRpcPayload | JsonRpcPayload[]): Promise<JsonRpcResult[]> {
    let lastError: unknown;
    for (let tried = 0; tried < this.urls.length; tried++) {
      const index = this.#current;
      try {
        return await super._send(payload);
      } catch (error) {
        lastError = error;
        if (this.urls.length === 1) break;
        // Another caller may have moved on already; only the first to see the failure advances.
        if (this.#current === index) {
          this.#current = (index + 1) % this.urls.length;
          this.stats.failovers++;
        }
      }
    }
    throw lastError;
  }
}
