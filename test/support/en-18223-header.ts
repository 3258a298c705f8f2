/** The header members EN 18223 makes mandatory in every passport representation. */
export const EN_18223_MANDATORY_HEADER = [
  'digitalProductPassportId',
  'uniqueProductIdentifier',
  'granularity',
  'dppSchemaVersion',
  'dppStatus',
  'lastUpdated',
  'economicOperatorId',
] as const;

/**
 * An item's links to its batch and model passports (docs/granularity.md): in the header of the public view and
 * the EN 18222 read of every item, null when it has no such level.
 */
export const EN_18223_LEVEL_LINKS = ['batchDppId', 'modelDppId'] as const;
