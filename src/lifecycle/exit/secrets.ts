import { chipKeySealingContext, openSunKeys } from '../../chips/chip-keys.ts';
import type { Environment } from '../../platform/config/config.ts';
import type { SecretBox } from '../../platform/secret-box.ts';
import { activeSigningSecrets, sealWebhookSecret } from '../../webhooks/endpoint-secrets.ts';
import { generateWebhookSecret } from '../../webhooks/signing.ts';

/** A row as `row_to_json` wrote it: bytea columns are `\x` hex text. */
export type ExitRow = Record<string, unknown>;

const hexToBuffer = (value: unknown) => Buffer.from(String(value).replace(/^\\x/, ''), 'hex');
const bufferToHex = (value: Buffer) => `\\x${value.toString('hex')}`;

/**
 * Export with secrets: a sealed column is opened with this instance's key and written in clear (base64), so
 * the bundle does not depend on the old instance's DATA_ENCRYPTION_KEY. A webhook endpoint keeps its current
 * secret only (a rotation in progress ends at the move).
 */
export function revealSecrets(table: string, row: ExitRow, box: SecretBox): ExitRow {
  if (table === 'webhook_endpoints') {
    const [secret] = activeSigningSecrets(box, {
      id: String(row.id),
      secret: hexToBuffer(row.secret),
      previousSecret: null,
      previousSecretExpiresAt: null,
    });
    return { ...row, secret: Buffer.from(secret!, 'utf8').toString('base64'), previous_secret: null };
  }
  if (table === 'chip_keys') {
    const scope = { companyId: String(row.company_id), environment: row.environment as Environment };
    const keys = openSunKeys(box, scope, {
      metaReadKey: hexToBuffer(row.meta_read_key),
      fileReadKey: hexToBuffer(row.file_read_key),
      fileReadKeyDiversification: null,
    });
    return {
      ...row,
      meta_read_key: Buffer.from(keys.metaReadKey).toString('base64'),
      file_read_key: Buffer.from(keys.fileReadKey).toString('base64'),
    };
  }
  return row;
}

function chipKeyContext(row: ExitRow, which: 'meta' | 'file'): string {
  return chipKeySealingContext(
    { companyId: String(row.company_id), environment: row.environment as Environment },
    which,
  );
}

/**
 * Import: a secret written in clear is sealed with the importing instance's key. A webhook endpoint exported
 * without its secret gets a fresh one and is imported disabled (its receiver knows the old secret only):
 * the company rotates the secret and enables the endpoint (docs/exit.md "Secrets").
 */
export function sealSecrets(table: string, row: ExitRow, box: SecretBox, secretsIncluded: boolean): ExitRow {
  if (table === 'webhook_endpoints') {
    const id = String(row.id);
    if (!secretsIncluded) {
      const fresh = generateWebhookSecret();
      return {
        ...row,
        secret: bufferToHex(sealWebhookSecret(box, id, fresh)),
        previous_secret: null,
        previous_secret_expires_at: null,
        enabled: false,
        disabled_reason: 'imported without its secret: rotate the secret, then enable the endpoint',
      };
    }
    const clear = Buffer.from(String(row.secret), 'base64').toString('utf8');
    return { ...row, secret: bufferToHex(sealWebhookSecret(box, id, clear)), previous_secret: null };
  }
  if (table === 'chip_keys') {
    return {
      ...row,
      meta_read_key: bufferToHex(
        box.seal(Buffer.from(String(row.meta_read_key), 'base64'), chipKeyContext(row, 'meta')),
      ),
      file_read_key: bufferToHex(
        box.seal(Buffer.from(String(row.file_read_key), 'base64'), chipKeyContext(row, 'file')),
      ),
    };
  }
  return row;
}
