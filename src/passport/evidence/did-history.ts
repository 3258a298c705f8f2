import type { EntityManager } from '@mikro-orm/postgresql';
import type { Environment } from '../../platform/config/config.ts';
import { didDocument } from '../../standards/credentials/did-web.ts';
import { pgTimestamp } from '../record/pg-values.ts';
import type { DatedDidDocument } from './bundle.ts';

interface KeyRow {
  public_key_multibase: string;
  created_at: string | Date;
  retired_at: string | Date | null;
}

/**
 * The environment's DID documents as they were over time: one per period between two key events (a key added,
 * a key retired), oldest first, each as the service served it then (every key known by then, the active one
 * first). Issuer keys are never deleted (src/standards/credentials/issuer-keys.ts), so the past is rebuilt from
 * their creation and retirement times.
 */
export async function didDocumentHistory(
  em: EntityManager,
  did: string,
  environment: Environment,
): Promise<DatedDidDocument[]> {
  const rows = await em
    .getConnection()
    .execute<KeyRow[]>(
      'select public_key_multibase, created_at, retired_at from issuer_keys where environment = ? order by id',
      [environment],
    );
  const keys = rows.map((row) => ({
    key: row.public_key_multibase,
    created: pgTimestamp(row.created_at).getTime(),
    retired: row.retired_at === null ? null : pgTimestamp(row.retired_at).getTime(),
  }));
  const instants = [
    ...new Set(keys.flatMap((k) => (k.retired === null ? [k.created] : [k.created, k.retired]))),
  ].sort((a, b) => a - b);
  return instants.map((from, i) => {
    const known = keys
      .filter((k) => k.created <= from)
      .sort((a, b) => b.created - a.created)
      .map((k) => ({ publicKeyMultibase: k.key, retired: k.retired !== null && k.retired <= from }));
    const until = instants[i + 1];
    return {
      validFrom: new Date(from).toISOString(),
      validUntil: until === undefined ? null : new Date(until).toISOString(),
      document: didDocument(did, known),
    };
  });
}
