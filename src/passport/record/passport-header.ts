import type { Environment } from '../../platform/config/config.ts';
import { digitalLink } from '../../standards/gs1/digital-link.ts';

/**
 * The EN 18223 passport header (the members OPC 30450-1's DigitalProductPassportType and IDTA-02099 "DPP
 * Metadata" carry): what identifies a passport, its product, its state and who is responsible for it. Pure: no
 * database, no clock; every representation (public, ERP, EN 18222 reads, UNTP credential, AAS DPP metadata
 * submodel) builds it with {@link passportHeader} from the same facts. Mapping and choices: docs/en18223.md.
 */

/** The version of our passport content model the header's `dppSchemaVersion` names. */
export const DPP_SCHEMA_VERSION = '1.0.0';

/**
 * The content specifications a passport of ours follows (no product-specific delegated act applies yet), each
 * also the name of its content section in the EN 18222 compressed document: the public product content, and
 * the economic operator's own (ERP) content, readable with the company's credential only.
 */
export const PUBLIC_CONTENT_SPECIFICATION_ID = 'urn:dpp-service:content-specification:product:1.0';
export const OPERATOR_CONTENT_SPECIFICATION_ID = 'urn:dpp-service:content-specification:product-operator:1.0';
export const CONTENT_SPECIFICATION_IDS: readonly string[] = [
  PUBLIC_CONTENT_SPECIFICATION_ID,
  OPERATOR_CONTENT_SPECIFICATION_ID,
];

/** Granularity of every passport we mint: one passport per serialised item (one chip, one token). */
export type DppGranularity = 'item';

/**
 * EN 18223 DppStatus as we map our states:
 * - `active`: minted, neither revoked nor recycled (our ACTIVE);
 * - `suspended`: revoked by its company (credential revoked, product still exists; the company may mint a new
 *   passport for it, but this one no longer vouches for it);
 * - `archived`: recycled (end of life: the product no longer exists; the passport stays readable as a record).
 * The company's own status changes (EN 18222, src/passport/record/dpp-status-rule.ts) add to these: `suspended`
 * (reversible) and `archived` (final, kept until `retainUntil`).
 */
export type DppStatus = 'active' | 'suspended' | 'archived';

export interface PassportHeader {
  /** `urn:uuid:` + the passport's service UID: globally unique across environments, never reused. */
  digitalProductPassportId: string;
  /** The product's GS1 Digital Link URI on our resolver (what its chip and QR code carry). */
  uniqueProductIdentifier: string;
  granularity: DppGranularity;
  dppSchemaVersion: string;
  dppStatus: DppStatus;
  /** ISO 8601 (UTC) time of the passport's latest content version (its mint time before any version). */
  lastUpdated: string;
  /** The company's GLN (13 digits) or EORI; null when the company has not set one yet. */
  economicOperatorId: string | null;
  /** The producing facility's identifier (GLN or other), when the company set one. */
  facilityId: string | null;
  contentSpecificationIds: string[];
  /** Archived by its company: kept and readable at least until then (ISO 8601); absent otherwise. */
  retainUntil?: string;
  /**
   * An item's batch passport's digitalProductPassportId (docs/granularity.md); null: the item has none; absent:
   * this representation does not state the links (a recorded version, the UNTP header).
   */
  batchDppId?: string | null;
  /** An item's model passport's digitalProductPassportId; null and absent as batchDppId. */
  modelDppId?: string | null;
  /**
   * The EU DPP registry's unique registration identifier (docs/registry.md), in the reads that look it up (ERP
   * view); never in a recorded version, whose hash the registration carries. Absent: not registered (yet).
   */
  registryRegistrationId?: string;
}

/** The facts a header is built from (all public, or settings the company publishes). */
export interface PassportHeaderFacts {
  serviceUid: string;
  tokenId: string;
  gtin: string | null | undefined;
  environment: Environment;
  /** Our passport status (ACTIVE, RECYCLED). */
  status: string;
  revokedAt: Date | null | undefined;
  lastUpdated: Date;
  economicOperatorId: string | null | undefined;
  facilityId: string | null | undefined;
  /**
   * The product-group content specifications the passport is pinned to (`urn:dpp-service:spec:battery:1.0.0`,
   * src/passport/content), listed after our own sections; omitted: none.
   */
  productGroupSpecificationIds?: readonly string[] | undefined;
  /** The status its company set (suspended, archived; EN 18222 status changes); null/omitted: none. */
  dppStatus?: string | null | undefined;
  retainUntil?: Date | null | undefined;
  /**
   * An item's model and batch passports, for the links (both members then present, null for a missing level);
   * omitted: not stated by this representation.
   */
  levels?: readonly { granularity: 'model' | 'batch'; serviceUid: string }[] | undefined;
  /** The registry's identifier of the passport's registration; omitted/null: none stated. */
  registryRegistrationId?: string | null | undefined;
}

const URN_UUID = 'urn:uuid:';

/** A passport's digitalProductPassportId from its service UID. */
export function dppIdOf(serviceUid: string): string {
  return `${URN_UUID}${serviceUid.toLowerCase()}`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The service UID a dppId names: `urn:uuid:<uuid>` (as the header shows it) or the bare UUID; undefined for
 * anything else (so a malformed id is a 400/404, never a database error).
 */
export function serviceUidOfDppId(dppId: string): string | undefined {
  const uuid = dppId.toLowerCase().startsWith(URN_UUID) ? dppId.slice(URN_UUID.length) : dppId;
  return UUID.test(uuid) ? uuid.toLowerCase() : undefined;
}

/** Our state → EN 18223 DppStatus (see {@link DppStatus}). Recycling wins over revocation (it also revokes). */
export function dppStatus(passport: {
  status: string;
  revokedAt: Date | null | undefined;
  dppStatus?: string | null | undefined;
}): DppStatus {
  if (passport.status === 'RECYCLED' || passport.dppStatus === 'archived') return 'archived';
  if (passport.revokedAt || passport.dppStatus === 'suspended') return 'suspended';
  return 'active';
}

/** The header of one passport; `publicBaseUrl` is the resolver's base (the Digital Link's host). */
export function passportHeader(facts: PassportHeaderFacts, publicBaseUrl: string): PassportHeader {
  return {
    digitalProductPassportId: dppIdOf(facts.serviceUid),
    uniqueProductIdentifier: digitalLink(publicBaseUrl, facts.environment, facts.gtin, facts.tokenId),
    granularity: 'item',
    dppSchemaVersion: DPP_SCHEMA_VERSION,
    dppStatus: dppStatus(facts),
    lastUpdated: facts.lastUpdated.toISOString(),
    economicOperatorId: facts.economicOperatorId ?? null,
    facilityId: facts.facilityId ?? null,
    contentSpecificationIds: [...CONTENT_SPECIFICATION_IDS, ...(facts.productGroupSpecificationIds ?? [])],
    ...(facts.retainUntil ? { retainUntil: facts.retainUntil.toISOString() } : {}),
    ...(facts.levels ? headerLevelLinks(facts.levels) : {}),
    ...(facts.registryRegistrationId ? { registryRegistrationId: facts.registryRegistrationId } : {}),
  };
}

/** The header's links to an item's batch and model passports, null for a level it does not have. */
export function headerLevelLinks(
  levels: readonly { granularity: 'model' | 'batch'; serviceUid: string }[],
): Pick<PassportHeader, 'batchDppId' | 'modelDppId'> {
  const of = (granularity: 'model' | 'batch') => {
    const level = levels.find((candidate) => candidate.granularity === granularity);
    return level ? dppIdOf(level.serviceUid) : null;
  };
  return { batchDppId: of('batch'), modelDppId: of('model') };
}
