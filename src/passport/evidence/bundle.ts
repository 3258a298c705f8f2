/**
 * The evidence bundle of one passport (docs/evidence.md): everything a verifier needs, with only the file and a
 * chain node, to check that the passport's history is the one its issuer signed and anchored. Plain JSON; this
 * module and the verifier import nothing of the database, the configuration or the service runtime.
 */
export const EVIDENCE_BUNDLE_FORMAT = 'dpp-evidence/1';

export interface EvidenceBundle {
  format: typeof EVIDENCE_BUNDLE_FORMAT;
  /** The passport: its digitalProductPassportId, granularity, environment, chain identity. */
  passport: EvidencePassport;
  /** The issuer (did:web) and its DID documents, one per period between key rotations. */
  issuer: { did: string; publicBaseUrl: string; didDocuments: DatedDidDocument[] };
  /** Every version, oldest first. */
  versions: EvidenceVersion[];
  /** The signed credentials the service keeps (the latest of each kind), each naming the version it signed. */
  credentials: EvidenceCredential[];
  /** Every event of the passport (item passports), oldest first, with its chain anchor. */
  events: EvidenceEvent[];
  /** The list of every part above by hash, signed by the issuer. */
  manifest: EvidenceManifest;
}

export interface EvidencePassport {
  dppId: string;
  granularity: 'model' | 'batch' | 'item';
  environment: string;
  /** Item passports: the token on the passport contract (decimal). */
  tokenId: string | null;
  contractAddress: string | null;
  mintTransactionHash: string | null;
  mintBlock: number | null;
}

export interface DatedDidDocument {
  /** From when this document was the issuer's (a key was added or retired then). */
  validFrom: string;
  /** Until when (null: it is the current one). */
  validUntil: string | null;
  document: Record<string, unknown>;
}

export interface EvidenceVersion {
  number: number;
  createdAt: string;
  /** SHA-256 (hex) of the RFC 8785 canonical JSON of `document`. */
  sha256: string;
  document: Record<string, unknown>;
  /** Model and batch versions: whether their hashes are anchored on chain yet. */
  anchorStatus?: 'pending' | 'anchored';
  /**
   * Model and batch versions, once anchored: the transaction whose `VersionAnchored(subject, dataHash,
   * publicDataHash)` log carries `sha256` (subject: keccak256 of "{dppId}/versions/{number}").
   */
  anchor?: VersionAnchor | null;
}

export interface VersionAnchor {
  transactionHash: string;
  blockNumber: number;
  contractAddress: string;
}

export interface EvidenceCredential {
  /** vc (Data Integrity, JSON), vc-jwt (compact JWS, VC-JOSE). */
  format: 'vc' | 'vc-jwt';
  /** untp credentials (with their audience when a variant), or the passport's own vc. */
  kind: string;
  /** The version that was current when it was signed. */
  versionNumber: number | null;
  signedAt: string;
  /** The credential as served: JSON text (vc) or a compact JWS (vc-jwt). */
  credential: string;
}

/** An event's anchor: the transaction that put it on chain, as the service recorded it. */
export interface EvidenceAnchor {
  /** The contract event the transaction must carry for this token. */
  log: 'SupplyChainEvent' | 'Minted' | 'Recycled' | 'ClaimAuthorized' | 'OwnershipClaimed';
  transactionHash: string;
  blockNumber: number;
  contractAddress: string;
  /** SupplyChainEvent only: the bytes32 the log carries. */
  dataHash: string | null;
}

export interface EvidenceEvent {
  /** The event as its data hash commits to it (the API's event view, e-mail masked). */
  payload: Record<string, unknown>;
  /** keccak256 of the payload's canonical JSON (null: an event the chain records itself, e.g. the mint). */
  dataHash: string | null;
  /** Null: not anchored yet (reported pending, never passed). */
  anchor: EvidenceAnchor | null;
}

export interface ManifestPart {
  /** versions/1, events/42, credentials/0, did/0, passport. */
  part: string;
  sha256: string;
}

export interface EvidenceManifest {
  issuedAt: string;
  parts: ManifestPart[];
  /** Compact JWS (EdDSA, kid a verification method of the issuer's DID) over the canonical JSON of {issuedAt, parts, passport}. */
  jws: string;
}
