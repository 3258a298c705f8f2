import type { EntityManager } from '@mikro-orm/postgresql';
import { type BackupAck, type BackupPush, textSha256 } from '../../adapters/backup/protocol.ts';
import { documentSha256, publicPart } from '../../passport/record/passport-document.ts';
import { canonicalJson } from '../../standards/ipfs/json.ts';

/** Why a copy is refused: a part whose hash is not the one claimed, or another version under its number. */
export type CopyRefusal =
  | { kind: 'hash_mismatch'; part: string; claimed: string; computed: string }
  | { kind: 'version_conflict'; number: number; stored: string };

/**
 * Keeps a peer's pushed version after checking every part against the hash claimed for it (the backup verifies,
 * it does not re-sign). Idempotent by (digital link, version number, hash): the same push again answers the
 * same acknowledgement; another hash under a stored number is refused.
 */
export async function acceptBackupCopy(
  em: EntityManager,
  peerId: string,
  push: BackupPush,
): Promise<{ ack: BackupAck; created: boolean } | { refused: CopyRefusal }> {
  const ack: BackupAck = {
    digitalLink: push.digitalLink,
    number: push.version.number,
    sha256: documentSha256(push.document),
    publicSha256: documentSha256(push.publicDocument),
    pageSha256: push.page ? textSha256(push.page.body) : null,
    credentialSha256: push.credential ? textSha256(push.credential.body) : null,
  };
  const derivedPublic = documentSha256(publicPart(push.document));
  const checks: [string, string | undefined, string | null][] = [
    ['document', push.version.sha256, ack.sha256],
    ['publicDocument', push.version.publicSha256, ack.publicSha256],
    ['publicDocument (the document’s public part)', derivedPublic, ack.publicSha256],
    ['page', push.page?.sha256, ack.pageSha256],
    ['credential', push.credential?.sha256, ack.credentialSha256],
  ];
  for (const [part, claimed, computed] of checks) {
    if (claimed !== undefined && claimed !== computed) {
      return { refused: { kind: 'hash_mismatch', part, claimed, computed: computed ?? '' } };
    }
  }
  const inserted = await em.getConnection().execute<{ id: string }[]>(
    `insert into backup_copies (peer_id, environment, digital_link_path, number, sha256, public_sha256, document,
       public_document, page, page_sha256, credential, credential_sha256, version_created_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     on conflict (peer_id, environment, digital_link_path, number) do nothing returning id`,
    [
      peerId,
      push.environment,
      push.digitalLink,
      push.version.number,
      ack.sha256,
      ack.publicSha256,
      canonicalJson(push.document),
      canonicalJson(push.publicDocument),
      push.page?.body ?? null,
      ack.pageSha256,
      push.credential?.body ?? null,
      ack.credentialSha256,
      new Date(push.version.createdAt),
    ],
  );
  if (inserted.length > 0) return { ack, created: true };
  const [stored] = await em
    .getConnection()
    .execute<{ sha256: string }[]>(
      'select sha256 from backup_copies where peer_id = ? and environment = ? and digital_link_path = ? and number = ?',
      [peerId, push.environment, push.digitalLink, push.version.number],
    );
  if (stored && stored.sha256.trim() !== ack.sha256) {
    return {
      refused: { kind: 'version_conflict', number: push.version.number, stored: stored.sha256.trim() },
    };
  }
  return { ack, created: false };
}
