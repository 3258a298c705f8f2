import type { EntityManager } from '@mikro-orm/postgresql';
import { formatEther } from 'ethers';
import { readCompanySettings } from '../../accounts/settings/company-settings.ts';
import { listSignals } from '../../chips/signals/list-signals.ts';
import { Chip, Passport } from '../../platform/db/entities/index.ts';
import { DomainError } from '../../platform/errors.ts';
import { NTAG_424_DNA } from '../../standards/sun/index.ts';
import { ROLES } from '../content/disclosure.ts';
import {
  PRODUCT_GROUP_DATA_SQL,
  type ProductGroupEntry,
  productGroupEntries,
} from '../content/pinned-sql.ts';
import { disclosedProductGroupData } from '../disclosure/product-group-view.ts';
import { ITEM_LEVEL_REFS_SQL, itemLevelRefs } from '../record/item-level-refs.ts';
import { passportHeader } from '../record/passport-header.ts';
import { latestPassportVersion } from '../record/passport-versions.ts';
import { registryIdOf } from '../registry/registration-read.ts';
import { chainOfCustody } from '../timeline/chain-of-custody.ts';
import { tokenEvents } from '../timeline/list-events.ts';
import { erpBackup } from './erp-backup.ts';

const ERP_SIGNALS = 50;

/** Names this representation in its `context` member. */
export const ERP_CONTEXT = 'ERP_INTEGRATION';
/** `integrationInfo.systemSource`: the system the data comes from. */
export const SYSTEM_SOURCE = 'dpp-service';

function iso(date: Date | null | undefined): string | null {
  return date ? date.toISOString() : null;
}

/** The spec's DPP token resource (every field of its table), as ERP systems read it. */
export function dppToken(passport: Passport) {
  return {
    id: passport.id,
    tokenId: passport.tokenId,
    chipUid: passport.chipUid,
    productId: passport.productId ?? null,
    ownerWallet: passport.ownerWallet,
    material: passport.material ?? null,
    warrantyExpiry: iso(passport.warrantyExpiry),
    metadataUrl: passport.metadataUrl,
    erpMaterialId: passport.erpMaterialId ?? null,
    erpSerial: passport.erpSerial ?? null,
    erpOrderId: passport.erpOrderId ?? null,
    serviceUid: passport.serviceUid,
    parentUid: passport.parentUid ?? null,
    transactionHash: passport.transactionHash,
    mintBlock: Number(passport.mintBlock),
    mintTimestamp: passport.mintTimestamp.toISOString(),
    lockedDeposit: formatEther(BigInt(passport.lockedDepositWei)),
    metadataCache: passport.metadataCache,
    contractAddress: passport.contractAddress,
    environment: passport.environment,
    status: passport.status,
    createdAt: passport.createdAt.toISOString(),
    updatedAt: passport.updatedAt.toISOString(),
  };
}

/**
 * format=erp: the brand's own view of one of its passports (the entity manager is scoped to the caller, who
 * must own it). `dataIntegrity` is ANCHORED when every event carries its transaction hash, ANCHORING while one
 * is still on its way to the chain; `chainOfCustody.integrityHash` lets the ERP check the events it stores;
 * `dppHeader` is the EN 18223 passport header (docs/en18223.md).
 */
export async function erpDocument(em: EntityManager, tokenId: string, publicBaseUrl: string) {
  const passport = await em.findOne(Passport, { tokenId });
  if (!passport) throw new DomainError('not_found', 'passport_not_found', `No passport ${tokenId}.`);
  const scope = { companyId: passport.companyId, environment: passport.environment };
  const [chip, events, settings, latest, productGroup, registryRegistrationId, signals] = await Promise.all([
    em.findOne(Chip, { id: passport.chipId }),
    tokenEvents(em, tokenId),
    readCompanySettings(em, { companyId: passport.companyId, environment: passport.environment }),
    latestPassportVersion(em, passport.id),
    // Its product-group data and its model and batch passports (the header's links), in one statement.
    em.execute<{ own: unknown; levels: unknown }[]>(
      `select ${PRODUCT_GROUP_DATA_SQL} as own, ${ITEM_LEVEL_REFS_SQL} as levels from passports p where p.id = ?`,
      [passport.id],
    ),
    registryIdOf(em, passport.environment, passport.serviceUid),
    listSignals(em, scope, { tokenId, status: 'open', limit: ERP_SIGNALS }),
  ]);
  const entries: ProductGroupEntry[] = productGroupEntries(productGroup[0]?.own);
  const verified = (chip?.verificationCount ?? 0) > 0;
  const backup = await erpBackup(em, passport);
  const dppHeader = passportHeader(
    {
      ...passport,
      lastUpdated: latest?.createdAt ?? passport.updatedAt,
      economicOperatorId: settings.economicOperatorId,
      facilityId: settings.facilityId,
      productGroupSpecificationIds: entries.map((entry) => entry.specificationId),
      levels: itemLevelRefs(productGroup[0]?.levels),
      registryRegistrationId,
    },
    publicBaseUrl,
  );
  return {
    context: ERP_CONTEXT,
    integrationInfo: {
      systemSource: SYSTEM_SOURCE,
      dataIntegrity: events.every((event) => event.transactionHash !== null) ? 'ANCHORED' : 'ANCHORING',
    },
    productData: dppToken(passport),
    chainOfCustody: chainOfCustody(events),
    events,
    hardware: {
      chipUid: passport.chipUid,
      chipType: chip?.chipType ?? NTAG_424_DNA,
      status: verified ? 'AUTHENTIC' : 'UNVERIFIED',
      verified,
      counter: chip?.sunCounter ?? null,
    },
    dppHeader,
    // The passport's open counterfeit signals, newest first, when it has any (docs/signals.md).
    ...(signals.signals.length > 0 ? { signals: signals.signals } : {}),
    // The brand's own view (only its API key reads format=erp): every field (docs/disclosure.md).
    ...(entries.length > 0 ? { productGroupData: disclosedProductGroupData(entries, ROLES) } : {}),
    // Once a backup provider is configured (docs/backup.md).
    ...(backup ? { backup } : {}),
  };
}
