import { isForbiddenAddress } from '../adapters/http/address-policy.ts';
import {
  AddressRefused,
  bareHost,
  pinnedLookup,
  type Resolver,
  resolveVetted,
  type VettedAddress,
} from '../adapters/http/pinned-request.ts';
import type { Environment } from '../platform/config/config.ts';
import { DomainError } from '../platform/errors.ts';

export { isForbiddenAddress, pinnedLookup, type Resolver, type VettedAddress };

/**
 * Where webhooks may be sent. Syntax: http(s) only, no credentials, at most 2048 characters. Network: in
 * the live environment (and in test unless private URLs are allowed there) every address the host
 * resolves to must be public; delivery re-resolves and then connects to exactly the vetted address, so
 * a DNS answer that changes between check and connect (DNS rebinding) cannot reach an internal service.
 */

export const MAX_WEBHOOK_URL_LENGTH = 2048;
export const URL_NOT_ALLOWED = 'webhook_url_not_allowed';

export interface UrlPolicy {
  /** Allow loopback, private and link-local targets (the test environment, for local receivers). */
  allowPrivate: boolean;
}

export function urlPolicyFor(environment: Environment, allowPrivateUrlsInTest: boolean): UrlPolicy {
  return { allowPrivate: environment === 'test' && allowPrivateUrlsInTest };
}

function refuse(message: string): DomainError {
  return new DomainError('rejected', URL_NOT_ALLOWED, message);
}

/** What is wrong with a webhook URL's syntax (both environments), or undefined when it is fine. */
export function webhookUrlSyntaxProblem(input: string): string | undefined {
  if (input.length > MAX_WEBHOOK_URL_LENGTH)
    return `Webhook URLs are at most ${MAX_WEBHOOK_URL_LENGTH} characters.`;
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return 'Not a valid absolute URL.';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'Webhook URLs must use http or https.';
  if (url.username || url.password) {
    return 'Webhook URLs must not carry credentials; authenticate deliveries with the signature.';
  }
  if (!url.hostname) return 'The URL has no host.';
  return undefined;
}

/** Parses a webhook URL, refusing (422 webhook_url_not_allowed) one that breaks the syntax rules. */
export function parseWebhookUrl(input: string): URL {
  const problem = webhookUrlSyntaxProblem(input);
  if (problem) throw refuse(problem);
  return new URL(input);
}

/**
 * Resolves the URL's host and checks every address it resolves to against the policy. Used at creation,
 * update and before each delivery attempt. Refuses (422 webhook_url_not_allowed) when any address is
 * forbidden or the host does not resolve; returns the addresses a delivery may connect to.
 */
export async function vetWebhookUrl(
  input: string,
  policy: UrlPolicy,
  resolve?: Resolver,
): Promise<{ url: URL; addresses: VettedAddress[] }> {
  const url = parseWebhookUrl(input);
  const host = bareHost(url.hostname);
  try {
    return {
      url,
      addresses: await resolveVetted(url, { allowPrivate: policy.allowPrivate, resolver: resolve }),
    };
  } catch (error) {
    if (!(error instanceof AddressRefused)) throw error;
    if (error.reason === 'unresolvable') {
      throw refuse(`The webhook host ${host} does not resolve${error.detail ? ` (${error.detail})` : ''}.`);
    }
    throw refuse(
      `The webhook host ${host} resolves to ${error.detail}, a private, loopback, link-local, metadata or ` +
        'otherwise non-public address; webhooks are sent to public addresses only.',
    );
  }
}

/**
 * Check at creation and update: syntax always; addresses only where private targets are forbidden, so a
 * test endpoint may name a host that only resolves on the developer's machine.
 */
export async function checkWebhookUrlForRegistration(
  input: string,
  policy: UrlPolicy,
  resolve?: Resolver,
): Promise<void> {
  if (policy.allowPrivate) parseWebhookUrl(input);
  else await vetWebhookUrl(input, policy, resolve);
}
