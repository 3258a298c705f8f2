import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { DomainError } from '../../errors.ts';
import { isForbiddenAddress } from '../../webhooks/url-safety.ts';

/** How SSO reaches identity providers and domain proofs: public HTTPS addresses only, unless allowed. */
export interface OutboundPolicy {
  /** SSO_ALLOW_PRIVATE_URLS: local providers in development and tests (http, loopback, private networks). */
  allowPrivate: boolean;
}

const refuse = (detail: string) => new DomainError('rejected', 'sso_url_not_allowed', detail);

/**
 * fetch() for URLs a company configured (its issuer and the endpoints it publishes, its domain proof): the
 * service must not be steered at internal addresses, so the host must resolve to public addresses only and the
 * scheme be https; redirects are not followed. (Resolved once before the request: a host that answers DNS
 * differently in between can still reach elsewhere; the webhooks' pinned connections would close that.)
 */
export async function outboundFetch(
  url: string,
  policy: OutboundPolicy,
  init: RequestInit = {},
): Promise<Response> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw refuse(`${url} is not a URL.`);
  }
  if (!policy.allowPrivate) {
    if (parsed.protocol !== 'https:') throw refuse(`${url} is not https.`);
    const host = parsed.hostname.replace(/^\[|\]$/g, '');
    const addresses = isIP(host) ? [{ address: host }] : await lookup(host, { all: true }).catch(() => []);
    if (addresses.length === 0) throw refuse(`${parsed.hostname} does not resolve.`);
    const bad = addresses.find((a) => isForbiddenAddress(a.address));
    if (bad) throw refuse(`${parsed.hostname} resolves to ${bad.address}, which is not a public address.`);
  }
  return fetch(parsed, { ...init, redirect: 'error' });
}
