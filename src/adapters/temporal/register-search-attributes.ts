import type { ConnectionLike } from '@temporalio/client';
import proto from '@temporalio/proto';
import type { Logger } from '../../platform/logging/logger.ts';
import { searchAttributes } from '../../processes/search-attributes.ts';

const KEYWORD = proto.temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD;

/**
 * Registers our custom search attributes in the namespace if they are missing (idempotent). Where the
 * operator API is not allowed (e.g. Temporal Cloud, where they are added in the cloud console), logs a
 * warning and carries on.
 */
export async function registerSearchAttributes(
  connection: Pick<ConnectionLike, 'operatorService'>,
  namespace: string,
  logger: Logger,
): Promise<void> {
  const wanted = Object.values(searchAttributes).map((key) => key.name);
  try {
    const existing = await connection.operatorService.listSearchAttributes({ namespace });
    const missing = wanted.filter((name) => !(name in (existing.customAttributes ?? {})));
    if (missing.length === 0) return;
    await connection.operatorService.addSearchAttributes({
      namespace,
      searchAttributes: Object.fromEntries(missing.map((name) => [name, KEYWORD])),
    });
    logger.info({ namespace, added: missing }, 'registered Temporal search attributes');
  } catch (error) {
    logger.warn(
      { err: error, namespace, wanted },
      'could not register Temporal search attributes; add them to the namespace by hand (all Keyword)',
    );
  }
}
