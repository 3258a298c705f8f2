import { z } from 'zod';

// The OpenAPI shapes of the EN 18222 reads (dpp-reads.ts).

export const representation = z
  .enum(['compressed', 'full'])
  .default('compressed')
  .describe(
    'compressed (default): header members and one member per content section; full: expanded elements.',
  );

export const dppIdParam = z
  .string()
  .min(1)
  .max(200)
  .describe('The digitalProductPassportId (urn:uuid:…), percent-encoded, or its bare UUID.');

export const headerShape = {
  digitalProductPassportId: z.string(),
  uniqueProductIdentifier: z.string(),
  granularity: z.enum(['model', 'batch', 'item']),
  dppSchemaVersion: z.string(),
  dppStatus: z.enum(['active', 'suspended', 'archived']),
  lastUpdated: z.string(),
  economicOperatorId: z.string().nullable(),
  facilityId: z.string().nullable(),
  contentSpecificationIds: z.array(z.string()),
  batchDppId: z
    .string()
    .nullable()
    .optional()
    .describe(
      'An item: its batch passport’s id, null when it has none (absent on model and batch passports).',
    ),
  modelDppId: z
    .string()
    .nullable()
    .optional()
    .describe(
      'An item: its model passport’s id, null when it has none (absent on model and batch passports).',
    ),
};
export const dppDocument = z
  .looseObject(headerShape)
  .describe(
    'The EN 18223 header members, then one member per content section (compressed) or `elements` (full).',
  );
export const versionSummary = z.object({
  number: z.number().int(),
  createdAt: z.string(),
  sha256: z
    .string()
    .optional()
    .describe('SHA-256 (hex) of the RFC 8785 form of the whole compressed document; owner only.'),
  publicSha256: z.string().describe('SHA-256 (hex) of the RFC 8785 form of the public compressed document.'),
  anchorStatus: z
    .enum(['pending', 'anchored'])
    .optional()
    .describe('Model and batch passports: whether the version’s hashes are anchored on chain yet.'),
  anchor: z
    .object({
      subject: z.string().describe('keccak256 of "{digitalProductPassportId}/versions/{number}" (bytes32).'),
      transactionHash: z.string(),
      blockNumber: z.number().int(),
      contractAddress: z.string(),
      anchoredAt: z.string(),
    })
    .optional()
    .describe(
      'Model and batch passports, once anchored: the transaction whose VersionAnchored(subject, sha256, ' +
        'publicSha256) log carries the version’s hashes (docs/granularity.md).',
    ),
});

export const ERRORS = {
  400: { description: 'invalid_dpp_id, invalid_element_path, or a query member out of range.' },
  401: {
    description: 'unauthorized (a credential that is not valid), credential_required (restricted element).',
  },
  403: {
    description:
      'not_passport_owner (another company’s credential on a restricted element), environment_mismatch.',
  },
  404: { description: 'dpp_not_found, version_not_found, element_not_found.' },
};
