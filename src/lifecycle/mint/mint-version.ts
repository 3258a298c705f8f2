import type { EntityManager } from '@mikro-orm/postgresql';
import { ITEM_LEVEL_REFS_SQL, itemLevelRefs } from '../../passport/record/item-level-refs.ts';
import type { PassportContentFacts } from '../../passport/record/passport-document.ts';
import type { Environment } from '../../platform/config/config.ts';
import type { TenantScope } from '../../platform/db/tenant-scope.ts';

/** The row a mint is about to insert, as far as its first version's document needs it. */
export interface MintRow
  extends Pick<
    PassportContentFacts,
    | 'tokenId'
    | 'chipUid'
    | 'productId'
    | 'gtin'
    | 'ownerWallet'
    | 'material'
    | 'metadataUrl'
    | 'metadata'
    | 'erpMaterialId'
    | 'erpOrderId'
    | 'serviceUid'
    | 'transactionHash'
    | 'contractAddress'
  > {
  mintedAt: Date;
  depositWei: string;
  /** The MINT event's actor and metadata. */
  platformAddress: string;
  eventMetadata: Record<string, unknown>;
}

/** What the database adds to a mint's first version: the ids the rows will get and what the company set. */
export interface MintFacts {
  passportId: number;
  eventId: number;
  facts: PassportContentFacts;
}

// Everything a fresh passport's document reads that is not in the mint itself, in one round trip and without
// writing: the ids its passport and MINT event will be inserted under (taken from their sequences), the chip's
// product, the company's header settings, and the model and batch passports it belongs to (ITEM_LEVEL_REFS_SQL
// reads `p`, here the row about to be inserted). A fresh passport has no product-group content and no links.
const MINT_FACTS = `
  select nextval('passports_id_seq')::int as passport_id, nextval('supply_chain_events_id_seq')::int as event_id,
    coalesce(cast(:productId as text), chip.product_id) as product_id, cs.economic_operator_id, cs.facility_id,
    ${ITEM_LEVEL_REFS_SQL} as levels
  from chips chip
  cross join (select cast(:companyId as uuid) as company_id, cast(:environment as text) as environment,
    cast(:gtin as text) as gtin, cast(:metadata as jsonb) as metadata_cache) p
  left join company_settings cs on cs.company_id = p.company_id and cs.environment = p.environment
  where chip.company_id = :companyId and chip.environment = :environment and chip.chip_uid = :chipUid`;

/**
 * The facts of the passport a mint will insert, as loadPassportContent would read them once it is written, so
 * its first version can be written by the insert statement itself; undefined when the chip is not enrolled in
 * the scope. A company setting changed between this read and the insert only makes that version older than the
 * settings: the next read records a newer one (currentPassportVersion).
 */
export async function mintFacts(
  em: EntityManager,
  scope: TenantScope,
  row: MintRow,
): Promise<MintFacts | undefined> {
  const [found] = await em.execute<
    {
      passport_id: number;
      event_id: number;
      product_id: string | null;
      economic_operator_id: string | null;
      facility_id: string | null;
      levels: unknown;
    }[]
  >(MINT_FACTS, {
    productId: row.productId,
    companyId: scope.companyId,
    environment: scope.environment,
    gtin: row.gtin,
    metadata: JSON.stringify(row.metadata),
    chipUid: row.chipUid,
  });
  if (!found) return undefined;
  // What the database gives back of JSON it stored (jsonb keeps no key order, which the canonical hash ignores).
  const stored = (value: Record<string, unknown>) =>
    JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
  const environment: Environment = scope.environment;
  return {
    passportId: found.passport_id,
    eventId: found.event_id,
    facts: {
      id: found.passport_id,
      companyId: scope.companyId,
      environment,
      serviceUid: row.serviceUid,
      tokenId: row.tokenId,
      chipUid: row.chipUid,
      productId: found.product_id,
      gtin: row.gtin,
      ownerWallet: row.ownerWallet,
      material: row.material,
      warrantyExpiry: null,
      metadataUrl: row.metadataUrl,
      metadata: stored(row.metadata),
      erpMaterialId: row.erpMaterialId,
      erpSerial: null,
      erpOrderId: row.erpOrderId,
      parentUid: null,
      transactionHash: row.transactionHash,
      mintTimestamp: row.mintedAt,
      lockedDepositWei: row.depositWei,
      contractAddress: row.contractAddress,
      status: 'ACTIVE',
      revokedAt: null,
      revocationReason: null,
      dppStatus: null,
      retainUntil: null,
      economicOperatorId: found.economic_operator_id,
      facilityId: found.facility_id,
      productGroupSpecificationIds: [],
      productGroupData: [],
      relatedPassports: [],
      levels: itemLevelRefs(found.levels),
      events: [
        {
          id: found.event_id,
          action: 'MINT',
          actor: row.platformAddress,
          actorEmail: null,
          locationName: null,
          latitude: null,
          longitude: null,
          metadata: stored(row.eventMetadata),
          timestamp: row.mintedAt,
        },
      ],
    },
  };
}
