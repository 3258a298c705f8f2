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
