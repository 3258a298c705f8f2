import type { EntityManager } from '@mikro-orm/postgresql';

/** A version held as a backup copy of a peer's passport, as served read-only by its Digital Link. */
export interface HeldCopy {
  peerId: string;
  digitalLinkPath: string;
  number: number;
  sha256: string;
  publicSha256: string;
  publicDocument: string;
  /** The page of the newest version the peer pushed one with (the page is pushed with the current version). */
  page: string | null;
  credential: string | null;
  versionCreatedAt: Date;
  receivedAt: Date;
}

interface Row {
  peer_id: string;
  digital_link_path: string;
  number: number;
  sha256: string;
  public_sha256: string;
  public_document: string;
  page: string | null;
  credential: string | null;
  version_created_at: Date | string;
  received_at: Date | string;
}

/**
 * The latest version a peer pushed of the passport at `digitalLinkPath` (as on the peer's host), with the newest
 * page and credential pushed for it; undefined when none is held.
 */
export async function latestHeldCopy(
  em: EntityManager,
  peerId: string,
  digitalLinkPath: string,
): Promise<HeldCopy | undefined> {
  const [row] = await em.getConnection().execute<Row[]>(
    `select c.peer_id, c.digital_link_path, c.number, c.sha256, c.public_sha256, c.public_document,
       p.page, p.credential, c.version_created_at, c.received_at
     from backup_copies c
     left join lateral (select page, credential from backup_copies w
       where w.peer_id = c.peer_id and w.digital_link_path = c.digital_link_path and w.page is not null
       order by w.number desc limit 1) p on true
     where c.peer_id = ? and c.digital_link_path = ? order by c.number desc limit 1`,
    [peerId, digitalLinkPath],
  );
  if (!row) return undefined;
  return {
    peerId: row.peer_id,
    digitalLinkPath: row.digital_link_path,
    number: row.number,
    sha256: row.sha256.trim(),
    publicSha256: row.public_sha256.trim(),
    publicDocument: row.public_document,
    page: row.page,
    credential: row.credential,
    versionCreatedAt: new Date(row.version_created_at),
    receivedAt: new Date(row.received_at),
  };
}
