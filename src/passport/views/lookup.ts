import type { EntityManager } from '@mikro-orm/postgresql';
import type { Environment } from '../../platform/config/config.ts';
import { pgTimestamp } from '../record/pg-values.ts';
import { INPUTS_STAMP_SQL } from './fast-lookups.ts';

/** What the public representations read of a passport, its chip and its company: one row, one statement. */
export interface PassportRecord {
  id: number;
  companyId: string;
  companyName: string;
  environment: Environment;
  tokenId: string;
  gtin: string | null;
  chipUid: string;
  status: string;
  metadata: {
    name?: unknown;
    image?: unknown;
    description?: unknown;
    custom_dpp_data?: Record<string, unknown>;
  };
  contractAddress: string;
  transactionHash: string;
  mintBlock: number;
  mintTimestamp: Date;
  statusList: number | null;
  statusListIndex: number | null;
  revokedAt: Date | null;
  /** The EN 18222 status its company set (suspended, archived) and, archived, until when it is kept. */
  dppStatus?: string | null;
  retainUntil?: Date | null;
  revocationReason: string | null;
  verificationCount: number;
  lastVerifiedAt: Date | null;
}

/** A supply-chain event as provenance shows it (no e-mail, no free-form metadata). */
export interface ProvenanceEvent {
  id: number;
  companyId: string;
  action: string;
  actor: string | null;
  locationName: string | null;
  latitude: number | null;
  longitude: number | null;
  timestamp: Date;
  transactionHash: string | null;
}

export interface CachedCredential {
  contentHash: string;
  credential: string;
  inputsStamp: string | null;
}

const PASSPORT_COLUMNS = `p.id, p.company_id, co.name as company_name, p.environment, p.token_id, p.gtin, p.chip_uid,
  p.status, p.metadata_cache, p.contract_address, p.transaction_hash, p.mint_block, p.mint_timestamp, p.status_list,
  p.status_list_index, p.revoked_at, p.revocation_reason, p.dpp_status, p.retain_until, c.verification_count, c.last_verified_at`;
const FROM = `from passports p join chips c on c.id = p.chip_id join companies co on co.id = p.company_id`;

// Raw statements: the public resolver reads any company's passport of the environment (the tenant filter is for
// tenant-scoped requests). Token ids are unique per environment (one sequence each).
const PASSPORT = `select ${PASSPORT_COLUMNS} ${FROM} where p.environment = ? and p.token_id = ?`;
const PASSPORT_WITH_HISTORY = `select ${PASSPORT_COLUMNS},
  (select coalesce(json_agg(json_build_object('id', e.id, 'companyId', e.company_id, 'action', e.action,
      'actor', e.actor, 'locationName', e.location_name, 'latitude', e.latitude, 'longitude', e.longitude,
      'timestamp', e.timestamp, 'transactionHash', e.transaction_hash) order by e.id), '[]'::json)
   from supply_chain_events e where e.environment = p.environment and e.token_id = p.token_id) as events,
  ${INPUTS_STAMP_SQL} as stamp, pc.content_hash, pc.credential, pc.inputs_stamp
  ${FROM} left join passport_credentials pc on pc.passport_id = p.id
  where p.environment = ? and p.token_id = ?`;

interface Row {
  id: number;
  company_id: string;
  company_name: string;
  environment: Environment;
  token_id: string;
  gtin: string | null;
  chip_uid: string;
  status: string;
  metadata_cache: PassportRecord['metadata'];
  contract_address: string;
  transaction_hash: string;
  mint_block: string | number;
  mint_timestamp: string | Date;
  status_list: number | null;
  status_list_index: number | null;
  revoked_at: string | Date | null;
  dpp_status: string | null;
  retain_until: string | Date | null;
  revocation_reason: string | null;
  verification_count: number;
  last_verified_at: string | Date | null;
}

interface HistoryRow extends Row {
  events: (Omit<ProvenanceEvent, 'timestamp'> & { timestamp: string })[];
  stamp: string;
  content_hash: string | null;
  credential: string | null;
  inputs_stamp: string | null;
}

function record(row: Row): PassportRecord {
  return {
    id: row.id,
    companyId: row.company_id,
    companyName: row.company_name,
    environment: row.environment,
    tokenId: row.token_id,
    gtin: row.gtin,
    chipUid: row.chip_uid,
    status: row.status,
    metadata: row.metadata_cache ?? {},
    contractAddress: row.contract_address,
    transactionHash: row.transaction_hash,
    mintBlock: Number(row.mint_block),
    mintTimestamp: pgTimestamp(row.mint_timestamp),
    statusList: row.status_list,
    statusListIndex: row.status_list_index,
    revokedAt: pgTimestamp(row.revoked_at),
    dppStatus: row.dpp_status,
    retainUntil: pgTimestamp(row.retain_until),
    revocationReason: row.revocation_reason,
    verificationCount: row.verification_count,
    lastVerifiedAt: pgTimestamp(row.last_verified_at),
  };
}

export async function findPassport(
  em: EntityManager,
  environment: Environment,
  tokenId: string,
): Promise<PassportRecord | undefined> {
  const [row] = await em.getConnection().execute<Row[]>(PASSPORT, [environment, tokenId]);
  return row ? record(row) : undefined;
}

/** The passport with its events (oldest first) and the credential signed for it last, in one statement. */
export async function findPassportWithHistory(
  em: EntityManager,
  environment: Environment,
  tokenId: string,
): Promise<
  | {
      passport: PassportRecord;
      events: ProvenanceEvent[];
      stamp: string;
      cached: CachedCredential | undefined;
    }
  | undefined
> {
  const [row] = await em.getConnection().execute<HistoryRow[]>(PASSPORT_WITH_HISTORY, [environment, tokenId]);
  if (!row) return undefined;
  return {
    passport: record(row),
    events: row.events.map((event) => ({ ...event, timestamp: new Date(event.timestamp) })),
    stamp: row.stamp,
    cached:
      row.content_hash && row.credential
        ? { contentHash: row.content_hash, credential: row.credential, inputsStamp: row.inputs_stamp }
        : undefined,
  };
}

/** Names the passport's Digital Link: GTIN (or fourteen zeros for a passport minted without one). */
export function passportGtin(passport: Pick<PassportRecord, 'gtin'>): string {
  return passport.gtin ?? '00000000000000';
}

/** The batch/lot the brand gave at mint (custom_dpp_data.batch_number), if any. */
export function passportBatch(passport: Pick<PassportRecord, 'metadata'>): string | undefined {
  const batch = passport.metadata.custom_dpp_data?.batch_number;
  return typeof batch === 'string' && batch !== '' ? batch : undefined;
}
