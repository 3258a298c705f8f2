import { createHash } from 'node:crypto';
import { z } from 'zod';

/**
 * The backup protocol's one message (docs/backup.md "Protocol"): a published version of a passport, as the
 * primary pushes it with `PUT /backup/v1/copies`, each part next to the SHA-256 the primary computed.
 */
export const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, 'lower-case hex SHA-256');

const textPart = z.object({ body: z.string().max(2_000_000), sha256: sha256Hex });

export const backupPushSchema = z.object({
  /** The path of the passport's Digital Link on the primary's host (e.g. /01/{gtin}/21/{serial}, /test/01/…). */
  digitalLink: z
    .string()
    .regex(/^(\/test)?\/01\/\d{14}(\/10\/[^/?#]{1,60})?(\/21\/[^/?#]{1,60})?$/, 'a GS1 Digital Link path'),
  environment: z.enum(['live', 'test']),
  version: z.object({
    number: z.number().int().min(1),
    createdAt: z.iso.datetime({ offset: true }),
    /** SHA-256 of the whole document's RFC 8785 canonical form (the version's hash). */
    sha256: sha256Hex,
    /** SHA-256 of the public part's canonical form (what the public reads). */
    publicSha256: sha256Hex,
  }),
  document: z.record(z.string(), z.unknown()),
  publicDocument: z.record(z.string(), z.unknown()),
  /** The public page as the primary rendered it (HTML), when the version was the current one at push time. */
  page: textPart.nullable(),
  /** The signed credential (W3C VC, eddsa-rdfc-2022) as the primary served it, with the page. */
  credential: textPart.nullable(),
});

export type BackupPush = z.infer<typeof backupPushSchema>;

/** The backup's acknowledgement: the hashes it computed itself over what it stored. */
export interface BackupAck {
  digitalLink: string;
  number: number;
  sha256: string;
  publicSha256: string;
  pageSha256: string | null;
  credentialSha256: string | null;
}

export const textSha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
