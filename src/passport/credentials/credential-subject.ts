import { getAddress } from 'ethers';
import { companyCustodyAddress } from '../../accounts/wallets/custody.ts';
import type { Environment } from '../../platform/config/config.ts';
import { digitalLink } from '../../standards/gs1/digital-link.ts';
import { NTAG_424_DNA } from '../../standards/sun/index.ts';
import { type PassportRecord, type ProvenanceEvent, passportGtin } from '../views/lookup.ts';
import { hardwareStatus } from '../views/status.ts';

/** How actors are named: did:pkh (CAIP-10) accounts on the environment's chain. */
export interface ActorDids {
  chainIds: Record<Environment, number>;
  custodyMasterSecret: string | undefined;
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/**
 * An event's actor as a DID: an actor that is an account (the platform's minter, a recycler's wallet) is that
 * account; a company that logged the event is its custodial wallet, the account that holds its passports.
 */
export function actorDid(event: ProvenanceEvent, environment: Environment, dids: ActorDids): string {
  const address =
    event.actor && ADDRESS.test(event.actor)
      ? getAddress(event.actor)
      : companyCustodyAddress(dids.custodyMasterSecret, event.companyId, environment);
  return `did:pkh:eip155:${dids.chainIds[environment]}:${address}`;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

function number(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** Drops members without a value: the credential states what is known and invents nothing. */
function compact<T extends Record<string, unknown>>(object: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(object).filter(([, v]) => v !== undefined && v !== null),
  ) as Partial<T>;
}

function measurement(value: number | undefined, unit: string, metricName?: string) {
  return value === undefined ? undefined : compact({ type: 'Measurement', value, unit, metricName });
}

/** Omits an object whose members (beside `type`) are all absent. */
function unlessEmpty<T extends Record<string, unknown>>(object: T): T | undefined {
  return Object.keys(object).some((key) => key !== 'type') ? object : undefined;
}

/**
 * A provenance entry's IRI: the product's Digital Link with the event's id as fragment. Stable (an event keeps
 * its id in every later version of the credential) and unique in the graph. It is what keeps the credential
 * cheap to canonicalise: `provenance` is an RDF list, and entries without an IRI would be blank nodes; then
 * every cell of the list (`rdf:first _:x; rdf:rest _:y`) looks like every other to RDFC-1.0, whose N-degree
 * hashing of look-alike blank nodes grows steeply with their number (about cubically: 500 events took 19 s with
 * rdf-canonize's work limit lifted; with the limit, signing failed from four events on). With an IRI each cell
 * is told apart by its first quad alone, and no N-degree hashing is needed.
 */
export function provenanceEntryId(link: string, event: Pick<ProvenanceEvent, 'id'>): string {
  return `${link}#event-${event.id}`;
}

/** An item's batch or model passport, as the credential links it (docs/granularity.md). */
export interface LevelRef {
  granularity: 'model' | 'batch';
  /** Its GS1 Digital Link (`/01/{gtin}` or `/01/{gtin}/10/{lot}`). */
  link: string;
}

/**
 * `credentialSubject` of the passport credential: the spec's members that have data, and an item's typed links
 * to its batch and model passports (`idpp:batchPassport`, `idpp:modelPassport`: node references, so they are
 * IRIs in the credential's graph).
 */
export function credentialSubject(
  passport: PassportRecord,
  events: readonly ProvenanceEvent[],
  publicBaseUrl: string,
  dids: ActorDids,
  levels: readonly LevelRef[] = [],
): Record<string, unknown> {
  const levelOf = (granularity: LevelRef['granularity']) => {
    const level = levels.find((candidate) => candidate.granularity === granularity);
    return level ? { id: level.link } : undefined;
  };
  const custom = passport.metadata.custom_dpp_data ?? {};
  const link = digitalLink(publicBaseUrl, passport.environment, passportGtin(passport), passport.tokenId);
  const composition = custom.material_composition;
  const materials =
    composition && typeof composition === 'object'
      ? Object.entries(composition as Record<string, unknown>)
          .filter(([, share]) => number(share) !== undefined)
          .map(([material, share]) => ({
            type: 'MaterialComponent',
            'schema:name': material,
            'dpp:percentage': share as number,
          }))
      : [];
  const conformityUrl = text(custom.conformity_url);
  return compact({
    id: link,
    type: 'Product',
    'dpp:upi': link,
    'dpp:modelIdentifier': passportGtin(passport),
    'dpp:instanceIdentifier': passport.tokenId,
    'schema:name': text(passport.metadata.name),
    'dpp:hsCode': text(custom.hsCode),
    'dpp:originCountry': text(custom.originCountry),
    'dpp:materialComposition': materials.length > 0 ? materials : undefined,
    'idpp:hardware': {
      chipType: NTAG_424_DNA,
      status: hardwareStatus(passport),
      verificationCount: passport.verificationCount,
    },
    'dpp:conformity': conformityUrl
      ? {
          type: 'Conformity',
          'dpp:complianceStatus': 'DECLARED',
          'dpp:declarationOfConformity': conformityUrl,
        }
      : undefined,
    'dpp:economicOperator': compact({
      type: 'EconomicOperator',
      'schema:name': text(custom.manufacturer_name) ?? passport.companyName,
      'schema:address': text(custom.manufacturer_address),
      'idpp:gln': text(custom.manufacturer_gln),
    }),
    provenance: events.map((event) =>
      compact({
        id: provenanceEntryId(link, event),
        action: event.action,
        location: event.locationName ?? undefined,
        actor: actorDid(event, passport.environment, dids),
        latitude: event.latitude ?? undefined,
        longitude: event.longitude ?? undefined,
        timestamp: `${event.timestamp.toISOString().slice(0, 19)}Z`,
        tx: event.transactionHash ?? undefined,
      }),
    ),
    'dpp:batchNumber': text(custom.batch_number),
    'idpp:batchPassport': levelOf('batch'),
    'idpp:modelPassport': levelOf('model'),
    'dpp:emissionsScorecard': unlessEmpty(
      compact({
        type: 'EmissionsScorecard',
        'dpp:carbonFootprint': measurement(
          number(custom.carbon_footprint),
          'KGM',
          'Product carbon footprint (kg CO2e per unit)',
        ),
      }),
    ),
    'dpp:circularityScorecard': unlessEmpty(
      compact({
        type: 'CircularityScorecard',
        'dpp:recycledContent': measurement(number(custom.recycled_content), 'P1'),
        'dpp:repairabilityScore': measurement(number(custom.repairability_score), 'SCORE'),
        'dpp:expectedLifeSpan': measurement(number(custom.expected_lifespan_years), 'ANN'),
      }),
    ),
  });
}
