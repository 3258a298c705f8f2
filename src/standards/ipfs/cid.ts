// Computes the CID that `ipfs add --cid-version 1 --raw-leaves` (Kubo defaults otherwise) gives for a byte
// string, without an IPFS node. Kubo's default importer: fixed-size chunker of 262144 bytes, every chunk a raw
// leaf block (codec 0x55), leaves combined into dag-pb UnixFS `file` nodes of at most 174 links each using the
// balanced layout, sha2-256 everywhere, CIDv1. A file of a single chunk is that raw leaf itself.
import { createHash } from 'node:crypto';
import * as dagPb from '@ipld/dag-pb';
import { UnixFS } from 'ipfs-unixfs';
import { base32 } from 'multiformats/bases/base32';
import { CID } from 'multiformats/cid';
import * as Digest from 'multiformats/hashes/digest';

export const CHUNK_SIZE = 262_144;
export const MAX_LINKS_PER_NODE = 174;
export const RAW_CODEC = 0x55;
export const DAG_PB_CODEC = dagPb.code;
export const SHA2_256 = 0x12;

/** One content-addressed block: its CID and the exact bytes that hash to it. */
export interface Block {
  cid: CID;
  bytes: Uint8Array;
}

export interface ImportResult {
  /** The root CID in its canonical string form (CIDv1, base32, `b…`). */
  cid: string;
  root: CID;
  /** File size in bytes. */
  size: number;
  /**
   * Every block of the DAG, children before parents, root last. Leaf bytes are views into the input, not copies.
   */
  blocks: Block[];
}

/** A node of the DAG under construction, with what its parent needs to link to it. */
interface DagEntry {
  cid: CID;
  /** Bytes of file content below this entry (UnixFS blocksize). */
  fileSize: number;
  /** Encoded size of this block plus all blocks below it (dag-pb link Tsize). */
  cumulativeSize: number;
}

function sha256Cid(codec: number, bytes: Uint8Array): CID {
  const hash = createHash('sha256').update(bytes).digest();
  return CID.createV1(codec, Digest.create(SHA2_256, new Uint8Array(hash)));
}

function rawLeaf(bytes: Uint8Array, blocks: Block[]): DagEntry {
  const cid = sha256Cid(RAW_CODEC, bytes);
  blocks.push({ cid, bytes });
  return { cid, fileSize: bytes.length, cumulativeSize: bytes.length };
}

/** A UnixFS `file` node without inline data that links `children` in order. */
function fileNode(children: DagEntry[], blocks: Block[]): DagEntry {
  const unixfs = new UnixFS({ type: 'file', blockSizes: children.map((child) => BigInt(child.fileSize)) });
  const bytes = dagPb.encode(
    dagPb.prepare({
      Data: unixfs.marshal(),
      // Kubo writes an empty name on every file link; dag-pb encodes `''` (unlike an absent name).
      Links: children.map((child) => ({ Hash: child.cid, Name: '', Tsize: child.cumulativeSize })),
    }),
  );
  const cid = sha256Cid(DAG_PB_CODEC, bytes);
  blocks.push({ cid, bytes });
  let fileSize = 0;
  let cumulativeSize = bytes.length;
  for (const child of children) {
    fileSize += child.fileSize;
    cumulativeSize += child.cumulativeSize;
  }
  return { cid, fileSize, cumulativeSize };
}

/**
 * Builds the UnixFS DAG for `bytes` as Kubo's balanced layout does. Grouping each level into runs of 174 from
 * the left yields the same tree as Kubo's depth-first fill: every subtree but the rightmost is full, and the
 * rightmost path is as deep as the others (a lone trailing leaf still gets its own parent at each level).
 */
export function importBytes(bytes: Uint8Array): ImportResult {
  const blocks: Block[] = [];
  let level: DagEntry[] = [];
  for (let offset = 0; offset < bytes.length || offset === 0; offset += CHUNK_SIZE) {
    level.push(rawLeaf(bytes.subarray(offset, offset + CHUNK_SIZE), blocks));
  }
  while (level.length > 1) {
    const parents: DagEntry[] = [];
    for (let start = 0; start < level.length; start += MAX_LINKS_PER_NODE) {
      parents.push(fileNode(level.slice(start, start + MAX_LINKS_PER_NODE), blocks));
    }
    level = parents;
  }
  const root = level[0]!.cid;
  return { cid: root.toString(base32), root, size: bytes.length, blocks };
}

/** The CIDv1 string `ipfs add --cid-version 1 --raw-leaves` would print for these bytes. */
export function computeCid(bytes: Uint8Array): string {
  return importBytes(bytes).cid;
}

/** Parses any CID string (v0 `Qm…` or v1 in a known multibase); `undefined` for anything else. */
export function parseCid(text: string): CID | undefined {
  if (text.length === 0 || text.length > 512) return undefined;
  try {
    return CID.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The canonical key for a CID: CIDv1 in base32. A v0 `Qm…` CID names the same dag-pb block as its v1 form, so
 * both spellings reach the same content. `undefined` when `text` is not a CID.
 */
export function normalizeCid(text: string): string | undefined {
  const cid = parseCid(text);
  return cid ? cidToKey(cid) : undefined;
}

/** CIDv1 base32 form of a parsed CID. */
export function cidToKey(cid: CID): string {
  return cid.toV1().toString(base32);
}

/**
 * Whether `cid` is one this importer can produce (and so verify): v1, sha2-256, raw or dag-pb. Content under
 * other CIDs (other hashes, identity CIDs, dag-cbor…) is outside what the stores hold.
 */
export function isImporterCid(cid: CID): boolean {
  return (
    (cid.code === RAW_CODEC || cid.code === DAG_PB_CODEC) &&
    cid.multihash.code === SHA2_256 &&
    cid.multihash.size === 32
  );
}
