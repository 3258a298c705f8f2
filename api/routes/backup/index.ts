import type { RouteDeps } from '../deps.ts';
import { backupStatusRoute } from './backup-status.ts';
import { pushCopyRoute } from './push-copy.ts';
import { serveCopyRoute } from './serve-copy.ts';

/** The backup copy, both roles (docs/backup.md): the primary's status read, the backup's push and read. */
export function backupRoutes(deps: RouteDeps) {
  return [backupStatusRoute(deps), pushCopyRoute(deps), serveCopyRoute(deps)];
}
