import type { EntityManager } from '@mikro-orm/postgresql';
import { CompiledQuery, type Kysely, type Transaction } from 'kysely';

/**
 * Runs `sql` (placeholders `$1`, `$2`…) with its parameters bound by the database, in the manager's transaction
 * when it has one. `em.execute` writes every parameter into the SQL text instead, escaping strings character by
 * character in JavaScript: for the request log's batched JSON and for the tap statement that was the largest
 * single cost of a request in the API process (bench/sun.bench.ts). Errors are MikroORM's, as em.execute's are.
 */
export async function executeBound<T>(em: EntityManager, sql: string, params: unknown[]): Promise<T[]> {
  const executor: Kysely<unknown> | Transaction<unknown> =
    em.getTransactionContext<Transaction<unknown>>() ?? em.getConnection().getClient();
  try {
    const result = await executor.executeQuery<T>(CompiledQuery.raw(sql, params));
    return result.rows as T[];
  } catch (error) {
    throw em.getDriver().convertException(error as Error);
  }
}
