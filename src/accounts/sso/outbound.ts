import {
  AddressRefused,
  type PinnedFetchResponse,
  pinnedFetch,
  type Resolver,
} from '../../adapters/http/pinned-request.ts';
import { DomainError } from '../../platform/errors.ts';

/** How SSO reaches identity providers and domain proofs: public HTTPS addresses only, unless allowed. */
export interface OutboundPolicy {
  /** SSO_ALLOW_PRIVATE_URLS: local providers in development and tests (http, loopback, private networks). */
  allowPrivate: boolean;
  /** Answers DNS for the check (tests inject one; default: the system resolver). */
  resolver?: Resolver;
  /** Which addresses are refused (tests only; default: src/adapters/http/address-policy.ts). */
  isForbidden?: (address: string) => boolean;
}

const refuse = (detail: string) => new DomainError('rejected', 'sso_url_not_allowed', detail);

/** Largest answer read from a provider (discovery, JWKS, tokens) or a domain proof. */
const MAX_ANSWER_BYTES = 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * A request for URLs a company configured (its issuer and the endpoints it publishes, its domain proof): the
 * service must not be steered at internal addresses, so the scheme must be https and the host resolve to
 * public addresses only, and the connection goes to exactly the address that was checked (the shared pinned
 * path, src/adapters/http/pinned-request.ts), so DNS rebinding cannot reach elsewhere. Redirects are not followed.
 */
export async function outboundFetch(
  url: string,
  policy: OutboundPolicy,
  init: { method?: string; headers?: Record<string, string>; body?: string; signal?: AbortSignal } = {},
): Promise<PinnedFetchResponse> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw refuse(`${url} is not a URL.`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw refuse(`${url} is not http(s).`);
  if (!policy.allowPrivate && parsed.protocol !== 'https:') throw refuse(`${url} is not https.`);
  try {
    return await pinnedFetch(parsed, policy, {
      method: init.method ?? 'GET',
      ...(init.headers ? { headers: init.headers } : {}),
      ...(init.body === undefined ? {} : { body: init.body }),
      timeoutMs: DEFAULT_TIMEOUT_MS,
      maxBodyBytes: MAX_ANSWER_BYTES,
      signal: init.signal,
    });
  } catch (error) {
    if (!(error instanceof AddressRefused)) throw error;
    // Where private targets are allowed a name that does not resolve is a network failure, as fetch has it.
    if (policy.allowPrivate) throw new Error(error.message);
    throw refuse(error.message);
  }
}
