import {
  AddressRefused,
  pinnedRequest,
  resolveVetted,
  type VettedAddress,
} from '../adapters/http/pinned-request.ts';
import { receiverAgent } from './receiver-agents.ts';

export interface WebhookPost {
  url: URL;
  body: string;
  headers: Record<string, string>;
  /**
   * The vetted addresses the connection may go to (vetWebhookUrl), so the socket goes where the check looked.
   * Omitted (benchmarks): the host is resolved once here, unchecked, and the connection pinned to that answer.
   */
  address?: VettedAddress | VettedAddress[];
  timeoutMs: number;
  /** How much of the response body to keep; the rest is not read. */
  maxSnippetBytes: number;
}

export interface WebhookResponse {
  /** The receiver's status, or null when no response arrived (refused, reset, timed out). */
  statusCode: number | null;
  error: string | null;
  snippet: string | null;
  durationMs: number;
  /** The address the delivery connected to (undefined when no connection was made). */
  remoteAddress?: string | undefined;
}

/** PostgreSQL text cannot hold NUL; receivers' bodies and error texts may. */
export function storableText(text: string, maxChars = 2048): string {
  return text.replaceAll('\u0000', '').slice(0, maxChars);
}

/** Most characters of a non-public receiver's answer the deliveries API keeps (see privateAnswerExcerpt). */
export const MAX_PRIVATE_EXCERPT_CHARS = 200;

/**
 * What is kept of the answer of a receiver at a non-public address: at most 200 printable characters, each
 * run of control characters or whitespace one space, so the deliveries API cannot be used to read internal
 * services (the status code and this excerpt are enough to debug a local receiver).
 */
export function privateAnswerExcerpt(text: string): string {
  const printable = text
    .replace(/[^\p{L}\p{M}\p{N}\p{P}\p{S} ]+/gu, ' ')
    .replace(/ {2,}/g, ' ')
    .trim();
  return Array.from(printable).slice(0, MAX_PRIVATE_EXCERPT_CHARS).join('');
}

/** A kept-alive socket the receiver closed as the request went out: nothing was answered on it. */
const STALE_SOCKET = /\b(ECONNRESET|EPIPE)\b/;

/**
 * One POST over the shared pinned path (src/adapters/http/pinned-request.ts): never following redirects,
 * over the receiver's kept-alive connections (receiver-agents.ts), with one deadline from connect to the last
 * byte kept. A request that meets a reused socket the receiver had just closed (reset before any answer) is
 * sent once more on a fresh connection, as an HTTP client does for a stale connection. Never rejects: every
 * outcome, including a network error or the deadline, comes back as a WebhookResponse.
 */
export async function postWebhook(post: WebhookPost): Promise<WebhookResponse> {
  let address = post.address;
  if (!address) {
    try {
      address = await resolveVetted(post.url, { allowPrivate: true });
    } catch (error) {
      if (!(error instanceof AddressRefused)) throw error;
      return { statusCode: null, error: error.message, snippet: null, durationMs: 0 };
    }
  }
  const addresses = Array.isArray(address) ? address : [address];
  const request = {
    url: post.url,
    method: 'POST',
    headers: post.headers,
    body: post.body,
    address,
    timeoutMs: post.timeoutMs,
    maxBodyBytes: post.maxSnippetBytes,
  };
  let response = await pinnedRequest({ ...request, agent: receiverAgent(post.url, addresses) });
  if (response.reusedSocket && response.statusCode === null && STALE_SOCKET.test(response.error ?? '')) {
    const spent = response.durationMs;
    response = await pinnedRequest({ ...request, timeoutMs: Math.max(1, post.timeoutMs - spent) });
    response = { ...response, durationMs: response.durationMs + spent };
  }
  return {
    statusCode: response.statusCode,
    error: response.error,
    snippet: response.body.length > 0 ? storableText(response.body.toString('utf8')) : null,
    durationMs: response.durationMs,
    remoteAddress: response.remoteAddress,
  };
}
