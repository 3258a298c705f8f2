import type { EntityManager } from '@mikro-orm/postgresql';
import { type BackupPush, textSha256 } from '../../adapters/backup/protocol.ts';
import { documentSha256, publicPart } from '../../passport/record/passport-document.ts';
import type { Environment } from '../../platform/config/config.ts';

/** One row of backup_pushes, as the pusher claims it. */
export interface PushRow {
  id: string;
  source: 'item' | 'level';
  version_id: string;
  environment: Environment;
  digital_link_path: string;
  number: number;
  sha256: string;
  attempts: number;
  version_created_at: Date | string;
}

const VERSION_CONTENT = {
  item: `select v.content, (select max(number) from passport_versions w where w.passport_id = v.passport_id) as latest
         from passport_versions v where v.id = ?`,
  level: `select v.content, (select max(number) from dpp_level_versions w where w.level_id = v.level_id) as latest
          from dpp_level_versions v where v.id = ?`,
};

/**
 * Reads what the public reads on the primary's own host (its page, its signed credential): undefined when the
 * primary answers that it has none (4xx); throws when it cannot answer now (network, 5xx), so the push retries.
 */
export type PublicReader = (path: string, accept: string) => Promise<string | undefined>;

/** A PublicReader over HTTP from the primary's public base URL (redirects to the page followed). */
export function httpPublicReader(publicBaseUrl: string): PublicReader {
  return async (path, accept) => {
    const response = await fetch(`${publicBaseUrl}${path}`, {
      headers: { accept },
      signal: AbortSignal.timeout(20_000),
    });
    if (response.status >= 400 && response.status < 500 && response.status !== 429) return undefined;
    if (!response.ok) throw new Error(`${path} answered ${response.status} on the primary`);
    return response.text();
  };
}

/**
 * The push of one version: its document as recorded, its public part, and (when it is the passport's current
 * version) the page and signed credential the primary serves now. Undefined when the version is gone (its
 * passport deleted).
 */
export async function pushOf(
  em: EntityManager,
  row: PushRow,
  read: PublicReader,
): Promise<BackupPush | undefined> {
  const [version] = await em
    .getConnection()
    .execute<{ content: Record<string, unknown>; latest: number }[]>(VERSION_CONTENT[row.source], [
      row.version_id,
    ]);
  if (!version) return undefined;
  const publicDocument = publicPart(version.content);
  const current = Number(version.latest) === row.number;
  const page = current ? await read(row.digital_link_path, 'text/html') : undefined;
  const credential =
    current && row.source === 'item'
      ? await read(`${row.digital_link_path}?format=vc`, 'application/ld+json')
      : undefined;
  return {
    digitalLink: row.digital_link_path,
    environment: row.environment,
    version: {
      number: row.number,
      createdAt: new Date(row.version_created_at).toISOString(),
      sha256: row.sha256.trim(),
      publicSha256: documentSha256(publicDocument),
    },
    document: version.content,
    publicDocument,
    page: page === undefined ? null : { body: page, sha256: textSha256(page) },
    credential: credential === undefined ? null : { body: credential, sha256: textSha256(credential) },
  };
}
