import type { EntityManager } from '@mikro-orm/postgresql';
import type { Environment } from '../../platform/config/config.ts';
import type { IssuerKeyring } from '../../standards/credentials/issuer-keys.ts';
import type { LevelPassport } from '../levels/levels.ts';
import { dppIdOf } from '../record/passport-header.ts';
import { pgTimestamp } from '../record/pg-values.ts';
import {
  EVIDENCE_BUNDLE_FORMAT,
  type EvidenceBundle,
  type EvidenceCredential,
  type EvidencePassport,
  type EvidenceVersion,
  type VersionAnchor,
} from './bundle.ts';
import { didDocumentHistory } from './did-history.ts';
import { passportEvents } from './evidence-events.ts';
import { manifestParts, manifestPayload, signJws } from './manifest.ts';

/** An item passport, as find-dpp's DppRef names it. */
export interface ItemRef {
  passportId: number;
  environment: Environment;
  serviceUid: string;
}

interface VersionRow {
  number: number;
  sha256: string;
  created_at: string | Date;
  content: Record<string, unknown>;
  anchor_status?: 'pending' | 'anchored';
  transaction_hash?: string | null;
  block_number?: string | number | null;
  contract_address?: string | null;
}

const toVersion = (row: VersionRow): EvidenceVersion => ({
  number: row.number,
  createdAt: pgTimestamp(row.created_at).toISOString(),
  sha256: row.sha256,
  document: row.content,
  ...(row.anchor_status ? { anchorStatus: row.anchor_status, anchor: levelAnchor(row) } : {}),
});

const levelAnchor = (row: VersionRow): VersionAnchor | null =>
  row.anchor_status === 'anchored' && row.transaction_hash && row.contract_address && row.block_number != null
    ? {
        transactionHash: row.transaction_hash,
        blockNumber: Number(row.block_number),
        contractAddress: row.contract_address,
      }
    : null;

/** The evidence bundle of an item passport: versions, stored credentials, events with anchors, signed manifest. */
export async function itemEvidence(
  em: EntityManager,
  keyring: IssuerKeyring,
  publicBaseUrl: string,
  ref: ItemRef,
): Promise<EvidenceBundle> {
  const [row] = await em.getConnection().execute<
    {
      token_id: string;
      company_id: string;
      contract_address: string;
      transaction_hash: string;
      mint_block: string | number | null;
    }[]
  >(
    'select token_id, company_id, contract_address, transaction_hash, mint_block from passports where id = ?',
    [ref.passportId],
  );
  if (!row) throw new Error(`passport ${ref.passportId} vanished`);
  const versions = (
    await em
      .getConnection()
      .execute<VersionRow[]>(
        'select number, sha256, created_at, content from passport_versions where passport_id = ? order by number',
        [ref.passportId],
      )
  ).map(toVersion);
  const passport: EvidencePassport = {
    dppId: dppIdOf(ref.serviceUid),
    granularity: 'item',
    environment: ref.environment,
    tokenId: row.token_id,
    contractAddress: row.contract_address,
    mintTransactionHash: row.transaction_hash,
    mintBlock: row.mint_block === null ? null : Number(row.mint_block),
  };
  return sealed(keyring, publicBaseUrl, em, {
    passport,
    versions,
    credentials: await storedCredentials(em, ref.passportId, versions),
    events: await passportEvents(em, { ...ref, tokenId: row.token_id, companyId: row.company_id }),
  });
}

/** The evidence bundle of a model or batch passport: its versions with their anchors (VersionAnchored logs). */
export async function levelEvidence(
  em: EntityManager,
  keyring: IssuerKeyring,
  publicBaseUrl: string,
  level: LevelPassport,
): Promise<EvidenceBundle> {
  const versions = (
    await em.getConnection().execute<VersionRow[]>(
      `select number, sha256, created_at, content, anchor_status, transaction_hash, block_number, contract_address
       from dpp_level_versions
       where level_id = ? order by number`,
      [level.id],
    )
  ).map(toVersion);
  const passport: EvidencePassport = {
    dppId: dppIdOf(level.serviceUid),
    granularity: level.granularity,
    environment: level.environment,
    tokenId: null,
    contractAddress: null,
    mintTransactionHash: null,
    mintBlock: null,
  };
  return sealed(keyring, publicBaseUrl, em, { passport, versions, credentials: [], events: [] });
}

/** Adds the issuer's DID documents over time and the manifest signed with the issuer's current key. */
async function sealed(
  keyring: IssuerKeyring,
  publicBaseUrl: string,
  em: EntityManager,
  parts: Pick<EvidenceBundle, 'passport' | 'versions' | 'credentials' | 'events'>,
): Promise<EvidenceBundle> {
  const environment = parts.passport.environment as Environment;
  const key = await keyring.signingKey(environment);
  const unsigned = {
    format: EVIDENCE_BUNDLE_FORMAT,
    passport: parts.passport,
    issuer: { did: key.did, publicBaseUrl, didDocuments: await didDocumentHistory(em, key.did, environment) },
    versions: parts.versions,
    credentials: parts.credentials,
    events: parts.events,
  } as const;
  const issuedAt = new Date().toISOString();
  const listed = manifestParts(unsigned);
  const jws = signJws(key.privateKey, key.verificationMethod, manifestPayload(unsigned, issuedAt, listed));
  return { ...unsigned, manifest: { issuedAt, parts: listed, jws } };
}

/**
 * The signed credentials the service keeps for the passport: one row per kind holding the latest signed one
 * (src/passport/credentials/signed-store.ts), so older versions' credentials are not kept; each names the
 * version that was current when it was signed.
 */
async function storedCredentials(
  em: EntityManager,
  passportId: number,
  versions: EvidenceVersion[],
): Promise<EvidenceCredential[]> {
  const connection = em.getConnection();
  const [vc, untp, variants] = await Promise.all([
    connection.execute<{ credential: string; signed_at: string | Date }[]>(
      'select credential, signed_at from passport_credentials where passport_id = ?',
      [passportId],
    ),
    connection.execute<{ data_integrity: string; jwt: string; signed_at: string | Date }[]>(
      'select data_integrity, jwt, signed_at from untp_credentials where passport_id = ?',
      [passportId],
    ),
    connection.execute<
      { access_role: string; data_integrity: string; jwt: string; signed_at: string | Date }[]
    >(
      `select access_role, data_integrity, jwt, signed_at from untp_variant_credentials
       where passport_id = ? order by access_role`,
      [passportId],
    ),
  ]);
  const at = (signedAt: string | Date) => {
    const time = pgTimestamp(signedAt);
    const current = versions.filter((v) => new Date(v.createdAt) <= time).at(-1);
    return { signedAt: time.toISOString(), versionNumber: current?.number ?? null };
  };
  const untpForms = (
    kind: string,
    row: { data_integrity: string; jwt: string; signed_at: string | Date },
  ) => [
    { format: 'vc' as const, kind, ...at(row.signed_at), credential: row.data_integrity },
    { format: 'vc-jwt' as const, kind, ...at(row.signed_at), credential: row.jwt },
  ];
  return [
    ...vc.map((row) => ({
      format: 'vc' as const,
      kind: 'passport',
      ...at(row.signed_at),
      credential: row.credential,
    })),
    ...untp.flatMap((row) => untpForms('untp', row)),
    ...variants.flatMap((row) => untpForms(`untp:${row.access_role}`, row)),
  ];
}
