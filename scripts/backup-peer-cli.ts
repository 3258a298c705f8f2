import type { EntityManager } from '@mikro-orm/postgresql';
import { addBackupPeer, listBackupPeers, revokeBackupPeer } from '../src/lifecycle/backup/backup-peers.ts';

export const BACKUP_PEER_HELP = `  backup-peer:add <peerId> [--note <text>]
      Lets another DPP provider push its backup copies here (docs/backup.md): prints the credential it sets as
      BACKUP_PROVIDER_TOKEN (shown only now; adding the id again replaces it). Its copies are served at
      /backup/<peerId>/01/{gtin}/21/{serial}.
  backup-peer:revoke <peerId>
      Stops the peer's pushes (the copies it pushed stay served).
  backup-peer:list
      The peers.`;

/** The backup-peer:* commands; false when `command` is not one of them. */
export async function backupPeerCommand(
  em: EntityManager,
  command: string,
  peerId: string | undefined,
  note: string | undefined,
  fail: (message: string) => never,
): Promise<boolean> {
  if (command === 'backup-peer:add') {
    if (!peerId) fail('backup-peer:add needs a peer id.');
    const { token } = await addBackupPeer(em, peerId, note).catch((error: Error) => fail(error.message));
    console.log(`backup peer ${peerId}: its BACKUP_PROVIDER_TOKEN (shown only now):\n  ${token}`);
  } else if (command === 'backup-peer:revoke') {
    if (!peerId) fail('backup-peer:revoke needs a peer id.');
    console.log(`${(await revokeBackupPeer(em, peerId)) ? 'revoked' : 'no such peer'}  ${peerId}`);
  } else if (command === 'backup-peer:list') {
    for (const peer of await listBackupPeers(em)) {
      console.log(
        `${peer.id}  ${peer.createdAt.toISOString()}  ${peer.revoked ? 'revoked' : 'active'}  ${peer.note ?? ''}`,
      );
    }
  } else {
    return false;
  }
  return true;
}
