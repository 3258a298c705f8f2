import type { EntityManager } from '@mikro-orm/postgresql';
import { addBackupPeer, listBackupPeers, revokeBackupPeer } from '../src/lifecycle/backup/backup-peers.ts';
import { pushUntilSettled } from '../src/lifecycle/backup/push-now.ts';
import { httpPublicReader } from '../src/lifecycle/backup/push-parts.ts';
import type { Config } from '../src/platform/config/config.ts';
import { createLogger } from '../src/platform/logging/logger.ts';

export const BACKUP_PEER_HELP = `  backup-peer:add <peerId> [--note <text>]
      Lets another DPP provider push its backup copies here (docs/backup.md): prints the credential it sets as
      BACKUP_PROVIDER_TOKEN (shown only now; adding the id again replaces it). Its copies are served at
      /backup/<peerId>/01/{gtin}/21/{serial}.
  backup-peer:revoke <peerId>
      Stops the peer's pushes (the copies it pushed stay served).
  backup-peer:list
      The peers.
  backup:push [--to <url> --token <token> --peer <peerId>]
      Pushes every version not yet acknowledged to the backup provider (default: BACKUP_PROVIDER_URL, _TOKEN,
      _PEER_ID) and waits up to a minute for the acknowledgements; prints how many are acknowledged.`;

interface BackupOptions {
  note?: string | undefined;
  to?: string | undefined;
  token?: string | undefined;
  peer?: string | undefined;
}

/** The backup-peer:* and backup:push commands; false when `command` is not one of them. */
export async function backupPeerCommand(
  em: EntityManager,
  config: Config,
  command: string,
  peerId: string | undefined,
  options: BackupOptions,
  fail: (message: string) => never,
): Promise<boolean> {
  const note = options.note;
  if (command === 'backup:push') {
    const configured = config.backup.provider;
    const url = options.to ?? configured?.url;
    const token = options.token ?? configured?.token;
    const peer = options.peer ?? configured?.peerId;
    if (!url || !token || !peer) fail('backup:push needs --to, --token and --peer (or BACKUP_PROVIDER_*).');
    const tally = await pushUntilSettled({
      em: () => em.fork(),
      provider: { url: url.replace(/\/+$/, ''), token, peerId: peer },
      read: httpPublicReader(config.publicBaseUrl),
      logger: createLogger('warn'),
      stuckAfterMs: configured?.stuckAfterMs ?? 600_000,
    });
    console.log(`acknowledged ${tally.acknowledged}  pending ${tally.pending}  refused ${tally.refused}`);
  } else if (command === 'backup-peer:add') {
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
