import { createHash, randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';

/** A provider allowed to push its copies here (registered by our operator: `npm run cli -- backup-peer:add`). */
export interface BackupPeer {
  id: string;
  note: string | null;
  createdAt: Date;
}

export const PEER_ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,62}$/;

const tokenHash = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

/**
 * Registers a peer and answers its credential (shown once; only its hash is kept). Registering an id again
 * replaces its credential (a rotation: the old one stops working).
 */
export async function addBackupPeer(
  em: EntityManager,
  id: string,
  note?: string,
): Promise<{ token: string }> {
  if (!PEER_ID_PATTERN.test(id))
    throw new Error('a peer id is lower-case letters, digits and dashes (at most 63)');
  const token = `bkp_${randomBytes(24).toString('base64url')}`;
  await em.getConnection().execute(
    `insert into backup_peers (id, token_sha256, note) values (?, ?, ?)
     on conflict (id) do update set token_sha256 = excluded.token_sha256, note = excluded.note, revoked_at = null`,
    [id, tokenHash(token), note ?? null],
  );
  return { token };
}

/** Stops a peer's pushes (its copies stay served: they are what the registry links to). */
export async function revokeBackupPeer(em: EntityManager, id: string): Promise<boolean> {
  const rows = await em
    .getConnection()
    .execute<{ id: string }[]>('update backup_peers set revoked_at = now() where id = ? returning id', [id]);
  return rows.length > 0;
}

export async function listBackupPeers(em: EntityManager): Promise<(BackupPeer & { revoked: boolean })[]> {
  const rows = await em
    .getConnection()
    .execute<{ id: string; note: string | null; created_at: Date; revoked_at: Date | null }[]>(
      'select id, note, created_at, revoked_at from backup_peers order by id',
    );
  return rows.map((row) => ({
    id: row.id,
    note: row.note,
    createdAt: new Date(row.created_at),
    revoked: row.revoked_at !== null,
  }));
}

/** The peer a bearer credential names; undefined when none (or revoked). */
export async function peerOfToken(em: EntityManager, token: string): Promise<string | undefined> {
  const [row] = await em
    .getConnection()
    .execute<{ id: string }[]>('select id from backup_peers where token_sha256 = ? and revoked_at is null', [
      tokenHash(token),
    ]);
  return row?.id;
}
