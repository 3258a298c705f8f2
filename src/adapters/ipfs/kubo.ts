// A ContentStore backed by a Kubo (go-ipfs) node through its RPC API (`IPFS_API_URL`, usually port 5001).
import { computeCid, normalizeCid } from '../../standards/ipfs/cid.ts';
import { JSON_CONTENT_TYPE } from '../../standards/ipfs/json.ts';
import { InvalidCidError, IpfsUnavailableError } from './errors.ts';
import { assertContentType, type ContentStore, DEFAULT_CONTENT_TYPE, type StoredContent } from './store.ts';

export interface KuboContentStoreOptions {
  /** Base URL of the RPC API, e.g. `http://127.0.0.1:5001`. `user:password@` becomes HTTP Basic auth. */
  apiUrl: string;
  /** Per-request limit; an unanswered call fails with {@link IpfsUnavailableError}. Default 30 s. */
  timeoutMs?: number;
  /**
   * Ask the node to answer from its own blockstore only (`offline=true` on `cat`). Default true: content
   * this service added is pinned there, and a CID it does not hold is a quick "absent" instead of a DHT
   * search that lasts until the timeout.
   */
  offline?: boolean;
}

/** Response of `/api/v0/add` (one JSON object per line; the last names the root). */
interface AddEntry {
  Name?: string;
  Hash?: string;
  Size?: string;
}

/**
 * {@link ContentStore} on Kubo.
 *
 * - `put` posts the bytes to `/api/v0/add?cid-version=1&raw-leaves=true&pin=true` and checks that the node's
 *   CID equals {@link computeCid}; a node whose `Import` settings (chunker, layout, hash) differ from Kubo's
 *   defaults is rejected, since its CIDs would not match the ones this service computes and publishes.
 * - `get` reads `/api/v0/cat?arg=<cid>`. Kubo keeps no content type, so it is sniffed: bytes that parse as
 *   JSON are `application/json`, a few common binary signatures (PNG, JPEG, GIF, WebP, PDF) get their type,
 *   anything else is `application/octet-stream`. The type given to `put` is validated but not kept.
 *   Bytes are not re-hashed here: Kubo verifies blocks itself, and content added to the node by other means
 *   (other chunkers, CIDv0) is legitimately not reproducible with {@link computeCid}.
 * - `has` is a `get` (Kubo's `cat` is the one read endpoint relied on), so it transfers the content.
 * - An unreachable node, a timeout, or a non-Kubo answer (e.g. the gateway port instead of the RPC port)
 *   throws {@link IpfsUnavailableError}; a CID the node does not hold is `undefined` / `false`.
 */
export class KuboContentStore implements ContentStore {
  readonly apiUrl: string;
  readonly timeoutMs: number;
  readonly offline: boolean;
  readonly #authorization: string | undefined;

  constructor(options: KuboContentStoreOptions) {
    const url = new URL(options.apiUrl);
    this.#authorization =
      url.username || url.password
        ? `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`
        : undefined;
    url.username = '';
    url.password = '';
    this.apiUrl = url.toString().replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.offline = options.offline ?? true;
  }

  async put(bytes: Uint8Array, contentType: string): Promise<{ cid: string }> {
    assertContentType(contentType);
    const expected = computeCid(bytes);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)]), 'content');
    const response = await this.#call('add', { 'cid-version': '1', 'raw-leaves': 'true', pin: 'true' }, form);
    const text = await this.#readText(response, 'add');
    if (!response.ok) throw this.#failure('add', response, text);
    const root = lastAddEntry(text)?.Hash;
    const cid = root === undefined ? undefined : normalizeCid(root);
    if (cid === undefined) {
      throw new IpfsUnavailableError(
        `IPFS node at ${this.apiUrl} answered add without a CID: ${preview(text)}`,
      );
    }
    if (cid !== expected) {
      throw new Error(
        `IPFS node at ${this.apiUrl} stored the content as ${cid}, but Kubo's default importer gives ${expected}; ` +
          'check the node’s Import settings (chunker, DAG layout, hash function).',
      );
    }
    return { cid };
  }

  async get(cid: string): Promise<StoredContent | undefined> {
    const key = normalizeCid(cid);
    if (key === undefined) throw new InvalidCidError(cid);
    const query: Record<string, string> = { arg: key };
    if (this.offline) query.offline = 'true';
    const response = await this.#call('cat', query);
    if (!response.ok) {
      const text = await this.#readText(response, 'cat');
      if (isNotFound(response.status, text)) return undefined;
      throw this.#failure('cat', response, text);
    }
    const bytes = Buffer.from(await this.#readBody(response, 'cat'));
    return { bytes, contentType: sniffContentType(bytes) };
  }

  async has(cid: string): Promise<boolean> {
    return (await this.get(cid)) !== undefined;
  }

  async #call(command: string, query: Record<string, string>, body?: FormData): Promise<Response> {
    const url = `${this.apiUrl}/api/v0/${command}?${new URLSearchParams(query).toString()}`;
    const headers: Record<string, string> = {};
    if (this.#authorization) headers.authorization = this.#authorization;
    try {
      return await fetch(url, {
        method: 'POST',
        headers,
        body: body ?? null,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw this.#unreachable(command, error);
    }
  }

  async #readText(response: Response, command: string): Promise<string> {
    return Buffer.from(await this.#readBody(response, command)).toString('utf8');
  }

  async #readBody(response: Response, command: string): Promise<ArrayBuffer> {
    try {
      return await response.arrayBuffer();
    } catch (error) {
      throw this.#unreachable(command, error);
    }
  }

  #unreachable(command: string, error: unknown): IpfsUnavailableError {
    if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
      return new IpfsUnavailableError(
        `IPFS node at ${this.apiUrl} did not answer ${command} within ${this.timeoutMs} ms`,
        { cause: error },
      );
    }
    const reason = networkErrorCode(error) ?? (error instanceof Error ? error.message : String(error));
    return new IpfsUnavailableError(
      `IPFS node at ${this.apiUrl} is unreachable (${reason}); is the Kubo daemon running and IPFS_API_URL right?`,
      { cause: error },
    );
  }

  #failure(command: string, response: Response, text: string): Error {
    const message = kuboMessage(text);
    if (message === undefined) {
      // Not Kubo's error shape: most likely the URL points at something else (a gateway, a proxy).
      return new IpfsUnavailableError(
        `IPFS node at ${this.apiUrl} answered ${command} with HTTP ${response.status} that is not a Kubo RPC ` +
          `response (is IPFS_API_URL the RPC API, port 5001?): ${preview(text)}`,
      );
    }
    return new Error(`IPFS ${command} failed (HTTP ${response.status}): ${message}`);
  }
}

/** The store for `IPFS_API_URL`, or `undefined` when it is not set. */
export function kuboStoreFromEnv(env: NodeJS.ProcessEnv = process.env): KuboContentStore | undefined {
  const apiUrl = env.IPFS_API_URL?.trim();
  return apiUrl ? new KuboContentStore({ apiUrl }) : undefined;
}

function lastAddEntry(text: string): AddEntry | undefined {
  let last: AddEntry | undefined;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const entry = JSON.parse(line) as AddEntry;
      if (typeof entry.Hash === 'string') last = entry;
    } catch {
      return undefined;
    }
  }
  return last;
}

/** Kubo's RPC errors are `{"Message": "...", "Code": 0, "Type": "error"}`. */
function kuboMessage(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as { Message?: unknown; Type?: unknown };
    return typeof body.Message === 'string' && body.Type === 'error' ? body.Message : undefined;
  } catch {
    return undefined;
  }
}

// Kubo words it differently across versions: "block was not found locally (offline)",
// "ipld: could not find <cid>", "merkledag: not found".
function isNotFound(status: number, text: string): boolean {
  const message = kuboMessage(text);
  return status === 500 && message !== undefined && /not found|could not find/i.test(message);
}

function networkErrorCode(error: unknown): string | undefined {
  const cause = error instanceof Error ? error.cause : undefined;
  if (typeof cause === 'object' && cause !== null && 'code' in cause && typeof cause.code === 'string') {
    return cause.code;
  }
  return undefined;
}

function preview(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat || '(empty body)';
}

const SIGNATURES: Array<[string, number[]]> = [
  ['image/png', [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
  ['image/jpeg', [0xff, 0xd8, 0xff]],
  ['image/gif', [0x47, 0x49, 0x46, 0x38]],
  ['application/pdf', [0x25, 0x50, 0x44, 0x46, 0x2d]],
];

/** The content type Kubo cannot tell us, guessed from the bytes (see {@link KuboContentStore}). */
export function sniffContentType(bytes: Buffer): string {
  for (const [type, signature] of SIGNATURES) {
    if (signature.every((byte, index) => bytes[index] === byte)) return type;
  }
  if (
    bytes.subarray(0, 4).toString('latin1') === 'RIFF' &&
    bytes.subarray(8, 12).toString('latin1') === 'WEBP'
  ) {
    return 'image/webp';
  }
  const first = bytes.find((byte) => byte !== 0x20 && byte !== 0x0a && byte !== 0x0d && byte !== 0x09);
  if (first === 0x7b || first === 0x5b) {
    try {
      JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
      return JSON_CONTENT_TYPE;
    } catch {
      // Not JSON after all.
    }
  }
  return DEFAULT_CONTENT_TYPE;
}
