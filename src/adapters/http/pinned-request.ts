import { lookup as dnsLookup } from 'node:dns/promises';
import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { isForbiddenAddress } from './address-policy.ts';

/**
 * The one way the service makes HTTP requests on a customer's behalf (webhook deliveries; SSO issuer discovery,
 * JWKS, token endpoint and domain proofs): resolve the host once, check every address it resolves to, then
 * connect to exactly the checked address. The socket never asks DNS again, so a name that answers a public
 * address to the check and an internal one a moment later (DNS rebinding) cannot steer the connection; the
 * Host header and the TLS server name (certificate check) stay the URL's host. Redirects are never followed.
 */

export interface VettedAddress {
  address: string;
  family: 4 | 6;
}

export type Resolver = (hostname: string) => Promise<VettedAddress[]>;

export const systemResolver: Resolver = async (hostname) => {
  const answers = await dnsLookup(hostname, { all: true, verbatim: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

export interface AddressPolicy {
  /** Allow loopback, private and link-local targets (local receivers and providers in development). */
  allowPrivate: boolean;
  /** Answers DNS for the check (tests inject one; default: the system resolver). */
  resolver?: Resolver | undefined;
  /** Which addresses are refused (default: `isForbiddenAddress`, src/adapters/http/address-policy.ts). */
  isForbidden?: ((address: string) => boolean) | undefined;
}

/** Why a URL's host may not be reached: it does not resolve, or it resolves to a forbidden address. */
export class AddressRefused extends Error {
  readonly reason: 'unresolvable' | 'forbidden';
  readonly host: string;
  /** The forbidden address, or the resolver's error code. */
  readonly detail: string | undefined;
  constructor(reason: 'unresolvable' | 'forbidden', host: string, detail: string | undefined) {
    super(
      reason === 'forbidden'
        ? `${host} resolves to ${detail}, which is not a public address.`
        : `${host} does not resolve${detail ? ` (${detail})` : ''}.`,
    );
    this.name = 'AddressRefused';
    this.reason = reason;
    this.host = host;
    this.detail = detail;
  }
}

/** `[::1]` → `::1`; other hosts unchanged. */
export function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

/**
 * Resolves the URL's host (an IP literal is its own answer) and checks every address against the policy;
 * returns the addresses a request may connect to, or throws AddressRefused. With private targets allowed
 * nothing is refused, but the answer is still the one the request connects to.
 */
export async function resolveVetted(url: URL, policy: AddressPolicy): Promise<VettedAddress[]> {
  const host = bareHost(url.hostname);
  const literal = isIP(host);
  let addresses: VettedAddress[];
  if (literal !== 0) {
    addresses = [{ address: host, family: literal === 6 ? 6 : 4 }];
  } else {
    try {
      addresses = await (policy.resolver ?? systemResolver)(host);
    } catch (error) {
      throw new AddressRefused('unresolvable', host, (error as NodeJS.ErrnoException).code ?? 'error');
    }
    if (addresses.length === 0) throw new AddressRefused('unresolvable', host, undefined);
  }
  if (!policy.allowPrivate) {
    const forbidden = policy.isForbidden ?? isForbiddenAddress;
    const bad = addresses.find((a) => forbidden(a.address));
    if (bad) throw new AddressRefused('forbidden', host, bad.address);
  }
  return addresses;
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | { address: string; family: number }[],
  family?: number,
) => void;

/**
 * A `lookup` for `http.request` / `https.request` that answers only vetted addresses, so the socket connects
 * where the check looked while the Host header and TLS server name stay the URL's host. Asked for every
 * answer (Node's happy eyeballs, autoSelectFamily), it gives all the vetted addresses (each one checked);
 * asked for one, the first.
 */
export function pinnedLookup(vetted: VettedAddress | VettedAddress[]) {
  const answers = Array.isArray(vetted) ? vetted : [vetted];
  if (answers.length === 0) throw new Error('pinnedLookup needs at least one vetted address');
  return (_hostname: string, options: { all?: boolean } | number | undefined, callback: LookupCallback) => {
    if (typeof options === 'object' && options?.all) {
      callback(
        null,
        answers.map((a) => ({ address: a.address, family: a.family })),
      );
    } else {
      callback(null, answers[0]!.address, answers[0]!.family);
    }
  };
}

export interface PinnedRequest {
  url: URL;
  method: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Where the socket may connect (from `resolveVetted`); the URL's host is never looked up again. */
  address: VettedAddress | VettedAddress[];
  /** One deadline from connect to the last byte kept. */
  timeoutMs: number;
  /** How much of the response body to keep; the rest is not downloaded. */
  maxBodyBytes: number;
  signal?: AbortSignal | undefined;
  /**
   * A keep-alive agent whose sockets may be reused (webhook receivers); its sockets must only ever have been
   * connected to vetted addresses of this URL's origin. Default: a fresh connection.
   */
  agent?: http.Agent | undefined;
}

export interface PinnedResponse {
  /** The server's status, or null when no response arrived (refused, reset, timed out). */
  statusCode: number | null;
  headers: IncomingHttpHeaders;
  /** At most maxBodyBytes of the response body. */
  body: Buffer;
  /** Whether the body was longer than maxBodyBytes (the rest was not read). */
  truncated: boolean;
  error: string | null;
  durationMs: number;
  /** The address the socket was connected to. */
  remoteAddress: string | undefined;
  /** Whether the request went over a kept-alive socket that an earlier request had used. */
  reusedSocket: boolean;
}

function describeError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  const message = error instanceof Error ? error.message : String(error);
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}

/**
 * One request to a vetted address, over a fresh connection unless an agent is given (no redirect following). Never
 * rejects: a network error, the deadline or an abort come back as `error` with whatever had arrived.
 */
export function pinnedRequest(request: PinnedRequest): Promise<PinnedResponse> {
  const started = performance.now();
  const transport = request.url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    let statusCode: number | null = null;
    let headers: IncomingHttpHeaders = {};
    let remoteAddress: string | undefined;
    const chunks: Buffer[] = [];
    let kept = 0;
    let truncated = false;
    const finish = (error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      request.signal?.removeEventListener('abort', onAbort);
      resolve({
        statusCode,
        headers,
        body: Buffer.concat(chunks),
        truncated,
        error,
        durationMs: Math.round(performance.now() - started),
        remoteAddress,
        reusedSocket: outgoing.reusedSocket,
      });
    };
    const body = request.body ?? '';
    const outgoing = transport.request(request.url, {
      method: request.method,
      agent: request.agent ?? false,
      headers: {
        ...request.headers,
        ...(request.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }),
      },
      lookup: pinnedLookup(request.address) as never,
    });
    outgoing.on('socket', (socket) => {
      if (socket.remoteAddress) remoteAddress = socket.remoteAddress;
      else
        socket.once('connect', () => {
          remoteAddress = socket.remoteAddress;
        });
    });
    const deadline = setTimeout(() => {
      finish(`timed out after ${request.timeoutMs} ms${statusCode === null ? '' : ' reading the response'}`);
      outgoing.destroy();
    }, request.timeoutMs);
    const onAbort = () => {
      finish(`aborted: ${describeError(request.signal?.reason ?? 'aborted')}`);
      outgoing.destroy();
    };
    if (request.signal?.aborted) {
      onAbort();
      return;
    }
    request.signal?.addEventListener('abort', onAbort, { once: true });
    outgoing.on('error', (error) => finish(describeError(error)));
    outgoing.on('response', (response) => {
      statusCode = response.statusCode ?? null;
      headers = response.headers;
      response.on('data', (chunk: Buffer) => {
        if (settled) return;
        const part = chunk.subarray(0, request.maxBodyBytes - kept);
        chunks.push(part);
        kept += part.length;
        if (part.length < chunk.length) truncated = true;
        // Enough kept: stop downloading whatever else the server sends.
        if (kept >= request.maxBodyBytes) {
          finish(null);
          response.destroy();
        }
      });
      response.on('end', () => finish(null));
      response.on('error', (error) => finish(statusCode === null ? describeError(error) : null));
      response.on('close', () => finish(null));
    });
    outgoing.end(request.body === undefined ? undefined : body);
  });
}

/** What `pinnedFetch` answers: the parts of a fetch Response its callers read. */
export interface PinnedFetchResponse {
  status: number;
  ok: boolean;
  headers: IncomingHttpHeaders;
  text(): Promise<string>;
  json(): Promise<unknown>;
}

/**
 * A fetch-like GET/POST through the pinned path: resolve and check (AddressRefused when refused), connect to
 * the checked address only, at most `maxBodyBytes` of answer (a longer one is an error, not silently cut).
 * Rejects with an Error when no response arrives, as fetch does.
 */
export async function pinnedFetch(
  url: URL,
  policy: AddressPolicy,
  init: {
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    timeoutMs: number;
    maxBodyBytes?: number;
    signal?: AbortSignal | undefined;
  },
): Promise<PinnedFetchResponse> {
  const addresses = await resolveVetted(url, policy);
  const maxBodyBytes = init.maxBodyBytes ?? 1024 * 1024;
  const response = await pinnedRequest({
    url,
    method: init.method ?? 'GET',
    headers: init.headers,
    body: init.body,
    address: addresses,
    timeoutMs: init.timeoutMs,
    // One byte more than allowed tells an oversized answer from one of exactly the limit.
    maxBodyBytes: maxBodyBytes + 1,
    signal: init.signal,
  });
  if (response.statusCode === null) throw new Error(response.error ?? 'no response');
  if (response.body.length > maxBodyBytes) {
    throw new Error(`the answer of ${url.host} exceeds ${maxBodyBytes} bytes`);
  }
  if (response.error) throw new Error(response.error);
  const text = response.body.toString('utf8');
  return {
    status: response.statusCode,
    ok: response.statusCode >= 200 && response.statusCode < 300,
    headers: response.headers,
    text: async () => text,
    json: async () => JSON.parse(text) as unknown,
  };
}
