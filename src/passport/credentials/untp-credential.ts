import type { EntityManager } from '@mikro-orm/postgresql';
import {
  CREDENTIALS_V2_CONTEXT,
  passportHeaderVocabulary,
  UNTP_0_7_0_CONTEXT,
  untpExtensionContextUrl,
} from '../../standards/credentials/contexts.ts';
import { contentHash } from '../../standards/credentials/issuer.ts';
import type { SigningKey } from '../../standards/credentials/issuer-keys.ts';
import { ensureStatusEntry } from '../../standards/credentials/status-entries.ts';
import { statusListUrl } from '../../standards/credentials/status-list.ts';
import { vcJwt } from '../../standards/credentials/vc-jose.ts';
import { digitalLink } from '../../standards/gs1/digital-link.ts';
import { PINNED_SPECIFICATIONS_SQL, pinnedIds } from '../content/pinned-sql.ts';
import { levelDigitalLink, levelsOfItem } from '../levels/levels.ts';
import { dppIdOf, type PassportHeader, passportHeader } from '../record/passport-header.ts';
import { type PassportRecord, passportGtin } from '../views/lookup.ts';
import type { PassportCredentialDeps } from './passport-credential.ts';
import { type Signing, signedOnce, type UntpForms, untpCredentialSlot } from './signed-store.ts';

/**
 * The passport as a UNTP 0.7.0 DigitalProductPassport credential (UN Transparency Protocol; schema
 * artefacts/schema/v0.7.0/dpp/DigitalProductPassport.json), secured two ways: an eddsa-rdfc-2022 Data Integrity
 * proof (`?format=untp`) and VC-JOSE (`application/vc+jwt`: the same unsecured credential as JWS payload).
 * Mapping and choices: docs/untp.md.
 */

export const HS_SCHEME = {
  schemeId: 'https://www.wcoomd.org/en/topics/nomenclature/overview.aspx',
  schemeName: 'Harmonized System (World Customs Organization)',
};
const GS1_GTIN_SCHEME = {
  type: ['IdentifierScheme'],
  id: 'https://id.gs1.org/01',
  name: 'GS1 Digital Link: GTIN (AI 01) with serial number (AI 21)',
};
const GS1_GLN_SCHEME = {
  type: ['IdentifierScheme'],
  id: 'https://id.gs1.org/414',
  name: 'GS1 Global Location Number (AI 414)',
};

export function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

export function compact<T extends Record<string, unknown>>(object: T): T {
  return Object.fromEntries(Object.entries(object).filter(([, v]) => v !== undefined && v !== null)) as T;
}

const GLN = /^\d{13}$/;
export const COUNTRY = /^[A-Za-z]{2}$/;

/** A facility or party identifier as a URI: a GLN as its GS1 Digital Link (AI 414 / 417), a URI as it is. */
function idUri(id: string, ai: '414' | '417'): string {
  return GLN.test(id) ? `https://id.gs1.org/${ai}/${id}` : id;
}

/** Where the product is made: the company's facility (header) else the manufacturer's GLN. */
export function untpFacility(facilityId: string | null, manufacturerGln: string | undefined, name: string) {
  return facilityId
    ? { type: ['Facility'], id: idUri(facilityId, '414'), name }
    : {
        type: ['Facility'],
        id: idUri(manufacturerGln!, '414'),
        name,
        registeredId: manufacturerGln,
        idScheme: GS1_GLN_SCHEME,
      };
}

/** The parties UNTP names: the manufacturer (by GLN) and the brand owner (the header's economic operator). */
export function untpParties(
  header: Pick<PassportHeader, 'economicOperatorId'>,
  companyName: string,
  manufacturerGln?: string,
  manufacturerName?: string,
) {
  const parties = [
    manufacturerGln && GLN.test(manufacturerGln)
      ? {
          role: 'manufacturer',
          party: {
            type: ['Party'],
            id: idUri(manufacturerGln, '417'),
            name: manufacturerName ?? companyName,
          },
        }
      : undefined,
    header.economicOperatorId
      ? {
          role: 'brandOwner',
          party: compact({
            type: ['Party'],
            id: GLN.test(header.economicOperatorId)
              ? idUri(header.economicOperatorId, '417')
              : `urn:eori:${header.economicOperatorId}`,
            name: companyName,
            registeredId: header.economicOperatorId,
          }),
        }
      : undefined,
  ].filter((party) => party !== undefined);
  return parties.length > 0 ? parties : undefined;
}

/** The facts UNTP requires that a passport may lack: what is missing, by UNTP member name. */
export function untpMissing(passport: PassportRecord, header: PassportHeader): string[] {
  const custom = passport.metadata.custom_dpp_data ?? {};
  const missing: string[] = [];
  if (!text(custom.hsCode)) missing.push('productCategory (custom_dpp_data.hsCode)');
  if (!COUNTRY.test(text(custom.originCountry) ?? '')) {
    missing.push('countryOfProduction (custom_dpp_data.originCountry, an ISO 3166-1 alpha-2 code)');
  }
  if (!header.facilityId && !(text(custom.manufacturer_gln) && GLN.test(String(custom.manufacturer_gln)))) {
    missing.push('producedAtFacility (company facilityId or custom_dpp_data.manufacturer_gln)');
  }
  return missing;
}

/** `credentialSubject`: a UNTP Product (identity, classification, facility, country, parties, documents, header). */
export function untpProduct(
  passport: PassportRecord,
  header: PassportHeader,
  publicBaseUrl: string,
  levels: readonly LevelLink[] = [],
) {
  const custom = passport.metadata.custom_dpp_data ?? {};
  const link = digitalLink(publicBaseUrl, passport.environment, passportGtin(passport), passport.tokenId);
  const hsCode = text(custom.hsCode)!;
  const manufacturerName = text(custom.manufacturer_name) ?? passport.companyName;
  const manufacturerGln = text(custom.manufacturer_gln);
  const facility = untpFacility(header.facilityId, manufacturerGln, manufacturerName);
  const conformity = text(custom.conformity_url);
  const relatedParty = untpParties(header, passport.companyName, manufacturerGln, manufacturerName);
  return compact({
    type: ['Product'],
    id: link,
    name: text(passport.metadata.name) ?? `Passport ${passport.tokenId}`,
    description: text(passport.metadata.description),
    idScheme: GS1_GTIN_SCHEME,
    modelNumber: passportGtin(passport) ?? undefined,
    batchNumber: text(custom.batch_number),
    itemNumber: passport.tokenId,
    idGranularity: 'item',
    productCategory: [{ code: hsCode, name: text(custom.category) ?? `HS ${hsCode}`, ...HS_SCHEME }],
    producedAtFacility: facility,
    countryOfProduction: { countryCode: text(custom.originCountry)!.toUpperCase() },
    relatedParty,
    relatedDocument: [
      {
        linkURL: `${link}?format=vc`,
        linkName: 'Digital Product Passport (W3C verifiable credential)',
        linkType: 'https://gs1.org/voc/dpp',
      },
      ...(conformity && /^https?:\/\//.test(conformity)
        ? [
            {
              linkURL: conformity,
              linkName: 'EU declaration of conformity',
              linkType: 'https://gs1.org/voc/certificationInfo',
            },
          ]
        : []),
      ...levels,
    ],
    // The EN 18223 header: UNTP's room for product information its schema does not model (terms: our context).
    characteristics: { passportHeader: compact({ id: header.digitalProductPassportId, ...header }) },
  });
}

/** A link from an item to its batch or model passport, as a UNTP Link (docs/untp.md "Model and batch"). */
export interface LevelLink {
  linkURL: string;
  linkName: string;
  linkType: string;
}

/**
 * The item's batch and model passports (docs/granularity.md), batch first: UNTP's Product names them by
 * `batchNumber` and `modelNumber` only, so the passports themselves are `relatedDocument` links typed with our
 * header vocabulary's `batchPassport` and `modelPassport`.
 */
export async function levelLinks(
  em: EntityManager,
  passportId: number,
  publicBaseUrl: string,
): Promise<LevelLink[]> {
  const vocab = passportHeaderVocabulary(publicBaseUrl);
  return (await levelsOfItem(em, passportId))
    .sort((a, b) => (a.granularity === b.granularity ? 0 : a.granularity === 'batch' ? -1 : 1))
    .map((level) => ({
      linkURL: levelDigitalLink(publicBaseUrl, level),
      linkName:
        level.granularity === 'batch'
          ? `Batch passport (${level.lot}, ${dppIdOf(level.serviceUid)})`
          : `Model passport (${dppIdOf(level.serviceUid)})`,
      linkType: `${vocab}${level.granularity}Passport`,
    }));
}

/**
 * The facts of the header the passport record does not carry, read as the public view reads them
 * (fast-lookups.ts PUBLIC_FACTS): the service UID, the company's header settings, the latest version's time.
 */
const HEADER_FACTS = `select p.service_uid, cs.economic_operator_id, cs.facility_id,
    coalesce((select v.created_at from passport_versions v where v.passport_id = p.id
      order by v.number desc limit 1), p.updated_at) as last_updated,
    ${PINNED_SPECIFICATIONS_SQL} as pinned_specifications
  from passports p
  left join company_settings cs on cs.company_id = p.company_id and cs.environment = p.environment
  where p.id = ?`;

interface HeaderRow {
  service_uid: string;
  economic_operator_id: string | null;
  facility_id: string | null;
  last_updated: Date | string;
  pinned_specifications: unknown;
}

/** The passport's EN 18223 header (src/passport/record/passport-header.ts), as the UNTP credential states it. */
export async function untpHeader(
  em: EntityManager,
  passport: PassportRecord,
  publicBaseUrl: string,
): Promise<PassportHeader> {
  const [row] = await em.getConnection().execute<HeaderRow[]>(HEADER_FACTS, [passport.id]);
  return passportHeader(
    {
      serviceUid: row!.service_uid,
      tokenId: passport.tokenId,
      gtin: passport.gtin,
      environment: passport.environment,
      status: passport.status,
      revokedAt: passport.revokedAt,
      dppStatus: passport.dppStatus,
      retainUntil: passport.retainUntil,
      lastUpdated: new Date(row!.last_updated),
      economicOperatorId: row!.economic_operator_id,
      facilityId: row!.facility_id,
      productGroupSpecificationIds: pinnedIds(row!.pinned_specifications),
    },
    publicBaseUrl,
  );
}

export class UntpUnavailable extends Error {
  readonly missing: string[];
  constructor(missing: string[]) {
    super(`The passport lacks what UNTP 0.7.0 requires: ${missing.join(', ')}.`);
    this.missing = missing;
  }
}

/**
 * Both secured forms of the passport's UNTP credential. Throws {@link UntpUnavailable} when the passport lacks
 * facts the UNTP schema requires (nothing is invented to fill them).
 */
export async function untpCredential(
  em: EntityManager,
  deps: PassportCredentialDeps,
  passport: PassportRecord,
): Promise<UntpForms> {
  const header = await untpHeader(em, passport, deps.publicBaseUrl);
  const missing = untpMissing(passport, header);
  if (missing.length > 0) throw new UntpUnavailable(missing);
  const [key, entry] = await Promise.all([
    deps.issuer.signingKey(passport.environment),
    ensureStatusEntry(em, passport),
  ]);
  const listUrl = statusListUrl(deps.publicBaseUrl, passport.environment, entry.list);
  const links = await levelLinks(em, passport.id, deps.publicBaseUrl);
  const subject = untpProduct(passport, header, deps.publicBaseUrl, links);
  const content = untpEnvelope(deps, key, subject, {
    id: `${listUrl}#${entry.index}`,
    type: 'BitstringStatusListEntry',
    statusPurpose: 'revocation',
    // UNTP 0.7.0's schema types statusListIndex as an integer (W3C Bitstring Status List writes a string).
    statusListIndex: entry.index,
    statusListCredential: listUrl,
  });
  const hash = contentHash({ untp: content, verificationMethod: key.verificationMethod });
  return signedOnce(em, untpCredentialSlot(passport.id), hash, signUntp(deps, key, content));
}

/**
 * The unsigned UNTP DigitalProductPassport around a Product: contexts (UNTP's, then ours, then `extraContexts`),
 * issuer, name and, for a passport that has one, its status entry (a model or batch passport has none).
 */
export function untpEnvelope(
  deps: PassportCredentialDeps,
  key: SigningKey,
  subject: Record<string, unknown> & { name: string },
  credentialStatus: Record<string, unknown> | undefined,
  extraContexts: readonly string[] = [],
) {
  return {
    '@context': [
      CREDENTIALS_V2_CONTEXT,
      UNTP_0_7_0_CONTEXT,
      untpExtensionContextUrl(deps.publicBaseUrl),
      ...extraContexts,
    ],
    type: ['DigitalProductPassport', 'VerifiableCredential'],
    issuer: {
      type: ['CredentialIssuer'],
      id: key.did,
      name: `Digital Product Passport service (${new URL(deps.publicBaseUrl).host})`,
    },
    name: `Digital Product Passport: ${subject.name}`,
    ...(credentialStatus ? { credentialStatus } : {}),
    credentialSubject: subject,
  };
}

/** Signs a UNTP credential's content both ways (Data Integrity, VC-JOSE) as {@link signedOnce} asks. */
export function signUntp(
  deps: PassportCredentialDeps,
  key: SigningKey,
  content: Record<string, unknown> & { '@context': string[] },
): (signing: Signing) => Promise<UntpForms> {
  return async ({ id, validFrom, at }) => {
    const { '@context': context, ...rest } = content;
    const unsecured = { '@context': context, id, ...rest, validFrom };
    const secured = await deps.issuer.sign(key, unsecured, at);
    return { dataIntegrity: JSON.stringify(secured), jwt: vcJwt(key, unsecured) };
  };
}
