import { createHash } from 'node:crypto';
import { formatEther } from 'ethers';
import type { Environment } from '../../platform/config/config.ts';
import { digitalLink } from '../../standards/gs1/digital-link.ts';
import { canonicalJson } from '../../standards/ipfs/json.ts';
import { NTAG_424_DNA } from '../../standards/sun/index.ts';
import { contentSpecifications } from '../content/content-specification.ts';
import type { Role } from '../content/disclosure.ts';
import { discloseContent } from '../disclosure/disclose-content.ts';
import { maskEmail } from '../timeline/mask-email.ts';
import type { ItemLevelRef } from './item-level-refs.ts';
import {
  CONTENT_SPECIFICATION_IDS,
  dppIdOf,
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
  /** The EN 18222 status its company set (suspended, archived) and, archived, until when it is kept. */
  dppStatus?: string | null;
  retainUntil?: Date | null;
  economicOperatorId: string | null;
  facilityId: string | null;
  /** The product-group content specifications it is pinned to (src/passport/content). */
  productGroupSpecificationIds: string[];
  /** The product-group data written against each pinned specification (one content section each). */
  productGroupData: { specificationId: string; data: Record<string, unknown> }[];
  /** Passports this one is linked to over the product's life (a repurposed battery's original, …). */
  relatedPassports: RelatedPassportFact[];
  /**
   * Its model and batch passports (docs/granularity.md), for the header's `modelDppId` and `batchDppId` (null
   * when it has none); omitted: the header leaves them out.
   */
  levels?: readonly ItemLevelRef[];
  events: ContentEvent[];
}

/**
 * A link between two passports of one physical product's life (docs/battery-passport.md, "Repurposing"):
 * `repurposedFrom`/`remanufacturedFrom` on the new passport name the original, `repurposedAs`/`remanufacturedAs`
 * on the original name the new one.
 */
export interface RelatedPassport {
  relation: PassportRelation;
  digitalProductPassportId: string;
  uniqueProductIdentifier: string;
  linkedAt: string;
}

export type PassportRelation = 'repurposedFrom' | 'remanufacturedFrom' | 'repurposedAs' | 'remanufacturedAs';

/** A link as loaded: the other passport's keys (its ids are built with the base URL). */
export interface RelatedPassportFact {
  relation: PassportRelation;
  serviceUid: string;
  environment: Environment;
  gtin: string | null;
  tokenId: string;
  linkedAt: Date;
}

/** How a link appears in a document or a linkset. */
export function relatedPassport(fact: RelatedPassportFact, publicBaseUrl: string): RelatedPassport {
  return {
    relation: fact.relation,
    digitalProductPassportId: dppIdOf(fact.serviceUid),
    uniqueProductIdentifier: digitalLink(publicBaseUrl, fact.environment, fact.gtin, fact.tokenId),
    linkedAt: fact.linkedAt.toISOString(),
  };
}

const iso = (date: Date | null): string | null => (date ? date.toISOString() : null);

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/** The public status word the resolver shows (ACTIVE, REVOKED, RECYCLED, SUSPENDED, ARCHIVED). */
function publicStatusOf(facts: Pick<PassportContentFacts, 'status' | 'revokedAt' | 'dppStatus'>): string {
  if (facts.status === 'RECYCLED') return 'RECYCLED';
  if (facts.revokedAt) return 'REVOKED';
  return facts.dppStatus ? facts.dppStatus.toUpperCase() : facts.status;
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
      // Only when there are links, so passports without any keep the document they always had.
      ...(facts.relatedPassports.length > 0
        ? { relatedPassports: facts.relatedPassports.map((fact) => relatedPassport(fact, publicBaseUrl)) }
        : {}),
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
    // One section per pinned product-group specification, named by its id (as the header lists it): the data
    // as written, dynamic data (state of health, status, use events) included, so each version keeps its values.
    ...Object.fromEntries(facts.productGroupData.map((entry) => [entry.specificationId, entry.data])),
  };
}

/** Content sections readable only with the owning company's credential. */
export const RESTRICTED_SECTIONS: readonly string[] = [OPERATOR_CONTENT_SPECIFICATION_ID];

/**
 * The document as callers holding `roles` (not the owner) may read it: without the restricted sections, each
 * product-group section cut to the fields its specification's disclosure policy gives one of the roles
 * (discloseContent; a section of a specification this process does not know is left out: fail closed).
 */
export function disclosedPart(
  document: Record<string, unknown>,
  roles: Iterable<Role>,
): Record<string, unknown> {
  const held = [...roles];
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(document)) {
    if (RESTRICTED_SECTIONS.includes(key)) continue;
    const specification = productGroupSectionSpecification(document, key);
    if (specification === null) {
      copy[key] = value;
    } else if (specification) {
      copy[key] = discloseContent(value as Record<string, unknown>, specification.policy, held);
    }
  }
  return copy;
}

/**
 * The product-group specification a document member is the section of: null when the member is no product-group
 * section (a header member or one of our own sections), undefined when it is one of a specification unknown here.
 */
export function productGroupSectionSpecification(document: Record<string, unknown>, key: string) {
  const listed = document.contentSpecificationIds;
  if (!Array.isArray(listed) || !listed.includes(key) || CONTENT_SPECIFICATION_IDS.includes(key)) return null;
  return contentSpecifications.get(key);
}

/** The document without its restricted sections: what anyone may read (product-group data: its public fields). */
export function publicPart(document: Record<string, unknown>): Record<string, unknown> {
  return disclosedPart(document, ['public']);
}

/** Lower-case hex SHA-256 of the UTF-8 bytes of the document's RFC 8785 (JCS) canonical form. */
export function documentSha256(document: unknown): string {
  return createHash('sha256').update(canonicalJson(document), 'utf8').digest('hex');
}
