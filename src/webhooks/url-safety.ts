import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import type { Environment } from '../config/config.ts';
import { DomainError } from '../errors.ts';

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

const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, includes the 169.254.169.254 metadata service
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, includes broadcast
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128],
  ['fc00::', 7], // unique local, includes the fd00:ec2::254 metadata service
  ['fe80::', 10],
  ['ff00::', 8], // multicast
  ['64:ff9b::', 96], // NAT64: reaches an IPv4 address we cannot vet here
  ['64:ff9b:1::', 48],
  ['2002::', 16], // 6to4: idem
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

/** Whether an IP address is one webhooks must never reach (non-public). IPv4-mapped IPv6 counts as IPv4. */
export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  if (family === 4) return blocked.check(address, 'ipv4');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return blocked.check(mapped[1]!, 'ipv4');
  return blocked.check(address, 'ipv6');
}

function refuse(message: string): DomainError {
  return new DomainError('rejected', URL_NOT_ALLOWED, message);
}

/** `[::1]` → `::1`; other hosts unchanged. */
function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
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

export interface VettedAddress {
  address: string;
  family: 4 | 6;
}

export type Resolver = (hostname: string) => Promise<VettedAddress[]>;

const systemResolver: Resolver = async (hostname) => {
  const answers = await dnsLookup(hostname, { all: true, verbatim: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/**
 * Resolves the URL's host and checks every address it resolves to against the policy. Used at creation,
 * update and before each delivery attempt. Refuses (422 webhook_url_not_allowed) when any address is
 * forbidden or the host does not resolve; returns the addresses a delivery may connect to.
 */
export async function vetWebhookUrl(
  input: string,
  policy: UrlPolicy,
  resolve: Resolver = systemResolver,
): Promise<{ url: URL; addresses: VettedAddress[] }> {
  const url = parseWebhookUrl(input);
  const host = bareHost(url.hostname);
  const literal = isIP(host);
  let addresses: VettedAddress[];
  if (literal !== 0) {
    addresses = [{ address: host, family: literal === 6 ? 6 : 4 }];
  } else {
    try {
      addresses = await resolve(host);
    } catch (error) {
      throw refuse(
        `The webhook host ${host} does not resolve (${(error as NodeJS.ErrnoException).code ?? 'error'}).`,
      );
    }
    if (addresses.length === 0) throw refuse(`The webhook host ${host} does not resolve.`);
  }
  if (!policy.allowPrivate) {
    const bad = addresses.find((a) => isForbiddenAddress(a.address));
    if (bad) {
      throw refuse(
        `The webhook host ${host} resolves to ${bad.address}, a private, loopback, link-local or otherwise ` +
          'non-public address; webhooks are sent to public addresses only.',
      );
    }
  }
  return { url, addresses };
}

/**
 * Check at creation and update: syntax always; addresses only where private targets are forbidden, so a
 * test endpoint may name a host that only resolves on the developer's machine.
 */
export async function checkWebhookUrlForRegistration(
  input: string,
  policy: UrlPolicy,
  resolve: Resolver = systemResolver,
): Promise<void> {
  if (policy.allowPrivate) parseWebhookUrl(input);
  else await vetWebhookUrl(input, policy, resolve);
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | { address: string; family: number }[],
  family?: number,
) => void;

/**
 * A `lookup` for `http.request` / `https.request` that answers only the vetted address, so the socket
 * connects where the check looked while the Host header and TLS server name stay the URL's host.
 */
export function pinnedLookup(vetted: VettedAddress) {
  return (_hostname: string, options: { all?: boolean } | number | undefined, callback: LookupCallback) => {
    if (typeof options === 'object' && options?.all) {
      callback(null, [{ address: vetted.address, family: vetted.family }]);
    } else {
      callback(null, vetted.address, vetted.family);
    }
  };
}
