import { createHash } from 'node:crypto';
import { formatEther } from 'ethers';
import type { Environment } from '../config/config.ts';
import { canonicalJson } from '../ipfs/json.ts';
import { NTAG_424_DNA } from '../sun/index.ts';
import { maskEmail } from '../supply-chain/mask-email.ts';
import {
  OPERATOR_CONTENT_SPECIFICATION_ID,
  type PassportHeader,
  PUBLIC_CONTENT_SPECIFICATION_ID,
  passportHeader,
} from './passport-header.ts';

/**
 * The passport's whole published content as one JSON document: the EN 18223 header's members at the top and
 * one content section per content specification (EN 18222 "compressed" form). What a version stores and
 * hashes; docs/passport-versions.md describes the canonical form.
 */
export type PassportDocument = PassportHeader & Record<string, unknown>;

/** One supply-chain event as the passport's content shows it (chain anchors are attestations, not content). */
export interface ContentEvent {
  id: number;
  action: string;
  actor: string | null;
  actorEmail: string | null;
  locationName: string | null;
  latitude: number | null;
  longitude: number | null;
  metadata: Record<string, unknown>;
  timestamp: Date;
}

/** Everything a passport's document is built from (read by loadPassportContent in one pass). */
export interface PassportContentFacts {
  id: number;
  companyId: string;
  environment: Environment;
  serviceUid: string;
  tokenId: string;
  chipUid: string;
  productId: string | null;
  gtin: string | null;
  ownerWallet: string;
  material: string | null;
  warrantyExpiry: Date | null;
  metadataUrl: string;
  metadata: Record<string, unknown>;
  erpMaterialId: string | null;
  erpSerial: string | null;
  erpOrderId: string | null;
  parentUid: string | null;
  transactionHash: string;
  mintTimestamp: Date;
  lockedDepositWei: string;
  contractAddress: string;
  status: string;
  revokedAt: Date | null;
  revocationReason: string | null;
  economicOperatorId: string | null;
  facilityId: string | null;
  /** The product-group content specifications it is pinned to (src/content-specs). */
  productGroupSpecificationIds: string[];
  events: ContentEvent[];
}

const iso = (date: Date | null): string | null => (date ? date.toISOString() : null);

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/** The public status word the resolver shows (ACTIVE, REVOKED, RECYCLED). */
function publicStatusOf(facts: Pick<PassportContentFacts, 'status' | 'revokedAt'>): string {
  if (facts.status === 'RECYCLED') return 'RECYCLED';
  return facts.revokedAt ? 'REVOKED' : facts.status;
}

/**
 * The passport document as of `lastUpdated` (the time of the version it is, or will be). Public section:
 * what the public representations and the credential already show (product name, GTIN, serial, batch, status,
 * contract, chip type, the events' action, place and time). Operator section: the brand's own data (chip,
 * owner, ERP references, metadata, deposit, revocation reason, events' actor and metadata).
 */
export function passportDocument(
  facts: PassportContentFacts,
  publicBaseUrl: string,
  lastUpdated: Date,
): PassportDocument {
  const custom = (facts.metadata.custom_dpp_data ?? {}) as Record<string, unknown>;
  const header = passportHeader({ ...facts, lastUpdated }, publicBaseUrl);
  return {
    ...header,
    [PUBLIC_CONTENT_SPECIFICATION_ID]: {
      name: text(facts.metadata.name),
      gtin: facts.gtin ?? '00000000000000',
      serialNumber: facts.tokenId,
      batchNumber: text(custom.batch_number),
      status: publicStatusOf(facts),
      smartContract: facts.contractAddress,
      chipType: NTAG_424_DNA,
      mintedAt: facts.mintTimestamp.toISOString(),
      events: facts.events.map((event) => ({
        id: event.id,
        action: event.action,
        locationName: event.locationName,
        latitude: event.latitude,
        longitude: event.longitude,
        timestamp: event.timestamp.toISOString(),
      })),
    },
    [OPERATOR_CONTENT_SPECIFICATION_ID]: {
      tokenId: facts.tokenId,
      chipUid: facts.chipUid,
      productId: facts.productId,
      ownerWallet: facts.ownerWallet,
      material: facts.material,
      warrantyExpiry: iso(facts.warrantyExpiry),
      metadataUrl: facts.metadataUrl,
      metadata: facts.metadata,
      erpMaterialId: facts.erpMaterialId,
      erpSerial: facts.erpSerial,
      erpOrderId: facts.erpOrderId,
      serviceUid: facts.serviceUid,
      parentUid: facts.parentUid,
      mintTransactionHash: facts.transactionHash,
      lockedDeposit: formatEther(BigInt(facts.lockedDepositWei)),
      revokedAt: iso(facts.revokedAt),
      revocationReason: facts.revocationReason,
      events: facts.events.map((event) => ({
        id: event.id,
        action: event.action,
        actor: event.actor,
        actorEmail: maskEmail(event.actorEmail),
        locationName: event.locationName,
        latitude: event.latitude,
        longitude: event.longitude,
        metadata: event.metadata,
        timestamp: event.timestamp.toISOString(),
      })),
    },
  };
}

/** Content sections readable only with the owning company's credential. */
export const RESTRICTED_SECTIONS: readonly string[] = [OPERATOR_CONTENT_SPECIFICATION_ID];

/** The document without its restricted sections: what anyone may read. */
export function publicPart(document: Record<string, unknown>): Record<string, unknown> {
  const copy = { ...document };
  for (const section of RESTRICTED_SECTIONS) delete copy[section];
  return copy;
}

/** Lower-case hex SHA-256 of the UTF-8 bytes of the document's RFC 8785 (JCS) canonical form. */
export function documentSha256(document: unknown): string {
  return createHash('sha256').update(canonicalJson(document), 'utf8').digest('hex');
}
