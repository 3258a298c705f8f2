import type { EntityManager } from '@mikro-orm/postgresql';
import type { Environment } from '../../platform/config/config.ts';

/**
 * Takes the next passport token id of an environment from a database sequence. Ids are chosen before
 * minting so the metadata can carry the passport's GS1 Digital Link; a crash between reserving and
 * minting leaves a harmless gap.
 */
export async function reserveTokenId(em: EntityManager, environment: Environment): Promise<string> {
  const rows = await em
    .getConnection()
    .execute<{ id: string }[]>(`select nextval('passport_token_ids_${environment}')::text as id`);
  return rows[0]!.id;
}
