// Content-addressed storage for passport metadata and other files published as `ipfs://<cid>`.
import { randomUUID } from 'node:crypto';
import { mkdir, open, readFile, rename, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { cidToKey, computeCid, isImporterCid, parseCid } from '../../standards/ipfs/cid.ts';
import { ContentIntegrityError, InvalidCidError } from './errors.ts';

export const DEFAULT_CONTENT_TYPE = 'application/octet-stream';

export interface StoredContent {
  bytes: Buffer;
  contentType: string;
}

/**
 * Bytes addressed by the CID `ipfs add --cid-version 1 --raw-leaves` gives them. CIDs are returned as CIDv1
 * base32 (`b…`); lookups accept any spelling of a CID (v0 `Qm…` included) and throw {@link InvalidCidError}
 * for strings that are not CIDs at all.
 */
export interface ContentStore {
  /** Stores `bytes` (idempotent: storing the same bytes again is a no-op that returns the same CID). */
  put(bytes: Uint8Array, contentType: string): Promise<{ cid: string }>;
  /** The bytes under `cid` with their content type, or `undefined` when the store does not hold them. */
  get(cid: string): Promise<StoredContent | undefined>;
  has(cid: string): Promise<boolean>;
}

// A media type as `type/subtype` with optional parameters, and nothing that could break an HTTP header.
const CONTENT_TYPE = /^[A-Za-z0-9][\w!#$&^.+-]*\/[A-Za-z0-9][\w!#$&^.+-]*(\s*;[ -~]*)?$/;

/** Throws a TypeError unless `contentType` is a media type safe to send back as a `Content-Type` header. */
export function assertContentType(contentType: string): void {
  if (contentType.length > 200 || !CONTENT_TYPE.test(contentType)) {
    throw new TypeError(`Not a valid content type: ${JSON.stringify(contentType.slice(0, 200))}`);
  }
}

/**
 * The CIDv1 base32 key under which an importer-made CID is stored, `undefined` for a valid CID no importer
 * store can hold; throws {@link InvalidCidError} when `cid` is not a CID at all.
 */
export function storageKey(cid: string): string | undefined {
  const parsed = parseCid(cid);
  if (parsed === undefined) throw new InvalidCidError(cid);
  return isImporterCid(parsed) ? cidToKey(parsed) : undefined;
}

interface Sidecar {
  contentType: string;
  size: number;
}

/**
 * A {@link ContentStore} in a local directory, for development, tests and single-node deployments. Layout:
 * `<directory>/<shard>/<cid>` holds the bytes and `<directory>/<shard>/<cid>.meta.json` the content type, where
 * `<shard>` is two characters taken from the end of the CID (hash-derived, so shards fill evenly).
 *
 * - Writes go to a temporary file that is fsynced and then renamed into place, so a reader never sees a
 *   partial file. The sidecar is written before the content, and content presence is what `has` reports.
 * - `put` is idempotent: if the same bytes are already stored nothing is written; if the stored file differs
 *   (corruption) it is replaced with the good bytes. The content type of the first `put` is kept; a later
 *   `put` of the same bytes with another type does not change it (the CID, ETag and caches are immutable).
 * - `get` re-hashes the bytes and throws {@link ContentIntegrityError} when they do not match the CID: corrupt
 *   content is reported, never served. `has` only checks presence.
 * - Only CIDs this store could produce (v1 or v0, sha2-256, raw or dag-pb) can be present; for other valid CIDs
 *   `get` is `undefined` and `has` is false. Only whole files are addressable, not the inner blocks of a DAG.
 */
export class EmbeddedContentStore implements ContentStore {
  readonly directory: string;

  constructor(directory: string) {
    this.directory = directory;
  }

  async put(bytes: Uint8Array, contentType: string): Promise<{ cid: string }> {
    assertContentType(contentType);
    const cid = computeCid(bytes);
    const { dir, content, sidecar } = this.paths(cid);
    await mkdir(dir, { recursive: true });
    if (!(await exists(sidecar))) {
      const meta: Sidecar = { contentType, size: bytes.length };
      await writeFileAtomic(sidecar, Buffer.from(JSON.stringify(meta)));
    }
    if (!(await holdsExactly(content, bytes))) await writeFileAtomic(content, bytes);
    return { cid };
  }

  async get(cid: string): Promise<StoredContent | undefined> {
    const key = storageKey(cid);
    if (key === undefined) return undefined;
    const { content, sidecar } = this.paths(key);
    const bytes = await readIfExists(content);
    if (bytes === undefined) return undefined;
    const actual = computeCid(bytes);
    if (actual !== key) throw new ContentIntegrityError(key, actual, content);
    return { bytes, contentType: await readContentType(sidecar) };
  }

  async has(cid: string): Promise<boolean> {
    const key = storageKey(cid);
    if (key === undefined) return false;
    return exists(this.paths(key).content);
  }

  /** Where the bytes and sidecar of a normalised CID live. */
  paths(key: string): { dir: string; content: string; sidecar: string } {
    const dir = join(this.directory, key.slice(-3, -1));
    const content = join(dir, key);
    return { dir, content, sidecar: `${content}.meta.json` };
  }
}

async function readContentType(sidecar: string): Promise<string> {
  const raw = await readIfExists(sidecar);
  if (raw === undefined) return DEFAULT_CONTENT_TYPE;
  try {
    const meta = JSON.parse(raw.toString('utf8')) as Partial<Sidecar>;
    if (typeof meta.contentType !== 'string') return DEFAULT_CONTENT_TYPE;
    assertContentType(meta.contentType);
    return meta.contentType;
  } catch {
    // A damaged sidecar must not block good content; without a trusted type it is served as opaque bytes.
    return DEFAULT_CONTENT_TYPE;
  }
}

async function holdsExactly(path: string, bytes: Uint8Array): Promise<boolean> {
  const info = await stat(path).catch(ignoreMissing);
  if (info === undefined || info.size !== bytes.length) return false;
  const stored = await readIfExists(path);
  return stored?.equals(bytes) === true;
}

async function exists(path: string): Promise<boolean> {
  return (await stat(path).catch(ignoreMissing)) !== undefined;
}

async function readIfExists(path: string): Promise<Buffer | undefined> {
  return readFile(path).catch(ignoreMissing);
}

function ignoreMissing(error: unknown): undefined {
  if (isErrno(error, 'ENOENT')) return undefined;
  throw error;
}

function isErrno(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === code;
}

/** Writes `bytes` to a fresh temporary file beside `path`, fsyncs it and renames it over `path`. */
async function writeFileAtomic(path: string, bytes: Uint8Array): Promise<void> {
  const temporary = `${path}.${randomUUID()}.tmp`;
  try {
    const handle = await open(temporary, 'wx', 0o644);
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
}
