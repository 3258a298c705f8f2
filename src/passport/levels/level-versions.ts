import type { EntityManager } from '@mikro-orm/postgresql';
import { documentSha256, publicPart } from '../record/passport-document.ts';
import { type LevelPassport, levelContent, levelDocument } from './levels.ts';

/** One recorded version of a model or batch passport (its hashes are what gets anchored, docs/granularity.md). */
export interface LevelVersion {
  number: number;
  sha256: string;
  publicSha256: string;
  createdAt: Date;
  anchorStatus: 'pending' | 'anchored';
  /** Once anchored: the transaction that carried the version's hashes (`anchorVersion`), its block, contract. */
  anchor: LevelVersionAnchor | null;
  content: Record<string, unknown>;
}

export interface LevelVersionAnchor {
  transactionHash: string;
  blockNumber: number;
  contractAddress: string;
  anchoredAt: Date;
}

interface VersionRow {
  number: number;
  sha256: string;
  public_sha256: string;
  created_at: Date | string;
  anchor_status: 'pending' | 'anchored';
  transaction_hash: string | null;
  block_number: string | number | null;
  contract_address: string | null;
  anchored_at: Date | string | null;
  content: Record<string, unknown>;
}

const SUMMARY_COLUMNS =
  'number, sha256, public_sha256, created_at, anchor_status, transaction_hash, block_number, contract_address, anchored_at';

const anchorOf = (row: Omit<VersionRow, 'content'>): LevelVersionAnchor | null =>
  row.anchor_status === 'anchored' && row.transaction_hash && row.block_number !== null
    ? {
        transactionHash: row.transaction_hash,
        blockNumber: Number(row.block_number),
        contractAddress: row.contract_address ?? '',
        anchoredAt: new Date(row.anchored_at ?? row.created_at),
      }
    : null;

const toSummary = (row: Omit<VersionRow, 'content'>): Omit<LevelVersion, 'content'> => ({
  number: row.number,
  sha256: row.sha256,
  publicSha256: row.public_sha256,
  createdAt: new Date(row.created_at),
  anchorStatus: row.anchor_status,
  anchor: anchorOf(row),
});

const toVersion = (row: VersionRow): LevelVersion => ({ ...toSummary(row), content: row.content });

/**
 * Records the level's document as its next version, in the caller's transaction (after its content write):
 * the header with the company's published operator and facility ids, each content section, the hashes of the
 * whole document and of its public part (RFC 8785, as item versions).
 */
export async function recordLevelVersion(
  tx: EntityManager,
  level: LevelPassport,
  publicBaseUrl: string,
): Promise<LevelVersion> {
  const [settings] = await tx.execute<{ economic_operator_id: string | null; facility_id: string | null }[]>(
    'select economic_operator_id, facility_id from company_settings where company_id = ? and environment = ?',
    [level.companyId, level.environment],
  );
  const [latest] = await tx.execute<{ number: number; created_at: Date | string }[]>(
    'select number, created_at from dpp_level_versions where level_id = ? order by number desc limit 1',
    [level.id],
  );
  const now = new Date(Math.max(Date.now(), latest ? new Date(latest.created_at).getTime() + 1 : 0));
  const sections = (await levelContent(tx, [level.id])).map(({ specificationId, data }) => ({
    specificationId,
    data,
  }));
  const content = levelDocument(
    {
      level,
      economicOperatorId: settings?.economic_operator_id ?? null,
      facilityId: settings?.facility_id ?? null,
      sections,
      lastUpdated: now,
    },
    publicBaseUrl,
  );
  const version: LevelVersion = {
    number: (latest?.number ?? 0) + 1,
    sha256: documentSha256(content),
    publicSha256: documentSha256(publicPart(content)),
    createdAt: now,
    anchorStatus: 'pending',
    anchor: null,
    content,
  };
  await tx.execute(
    `insert into dpp_level_versions (level_id, number, sha256, public_sha256, content, created_at)
     values (?, ?, ?, ?, ?::jsonb, ?)`,
    [level.id, version.number, version.sha256, version.publicSha256, JSON.stringify(content), now],
  );
  return version;
}

/** The level's latest version (its current document). */
export async function latestLevelVersion(
  em: EntityManager,
  levelId: number,
): Promise<LevelVersion | undefined> {
  const [row] = await em.execute<VersionRow[]>(
    `select ${SUMMARY_COLUMNS}, content from dpp_level_versions where level_id = ? order by number desc limit 1`,
    [levelId],
  );
  return row && toVersion(row);
}

/** A page of the level's versions, oldest first (content left out). */
export async function levelVersionSummaries(
  em: EntityManager,
  levelId: number,
  page: { limit: number; after?: number | undefined },
): Promise<{ items: Omit<LevelVersion, 'content'>[]; nextCursor: string | null }> {
  const rows = await em.execute<Omit<VersionRow, 'content'>[]>(
    `select ${SUMMARY_COLUMNS} from dpp_level_versions where level_id = ? and number > ? order by number limit ?`,
    [levelId, page.after ?? 0, page.limit + 1],
  );
  const items = rows.slice(0, page.limit).map(toSummary);
  return { items, nextCursor: rows.length > page.limit ? String(items[items.length - 1]!.number) : null };
}

/**
 * One version of the level: by its number, or the one current at a time (the latest recorded at or before it;
 * EN 18222 ReadDPPVersionByIdAndDate).
 */
export async function levelVersionByNumber(
  em: EntityManager,
  levelId: number,
  which: number | Date,
): Promise<LevelVersion | undefined> {
  const [row] = await em.execute<VersionRow[]>(
    typeof which === 'number'
      ? `select ${SUMMARY_COLUMNS}, content from dpp_level_versions where level_id = ? and number = ?`
      : `select ${SUMMARY_COLUMNS}, content from dpp_level_versions where level_id = ? and created_at <= ?
         order by number desc limit 1`,
    [levelId, which],
  );
  return row && toVersion(row);
}
