import type { EntityManager } from '@mikro-orm/postgresql';
import type { FileReadKeyDiversification } from '../platform/db/entities/chip-keys.ts';
import { ChipKeys } from '../platform/db/entities/index.ts';
import type { TenantScope } from '../platform/db/tenant-scope.ts';
import { DomainError } from '../platform/errors.ts';
import type { SecretBox } from '../platform/secret-box.ts';
import { FACTORY_DEFAULT_KEY, type SunKeys } from '../standards/sun/index.ts';

/** What a company's sealed SDM key is bound to (the exit bundle seals imported keys the same way). */
export function chipKeySealingContext(scope: TenantScope, which: string): string {
  return `chip-keys:${scope.companyId}:${scope.environment}:${which}`;
}

/** Stores (or replaces) the company's SDM keys for the scope's environment, encrypted. Keys are never read back out. */
export async function setChipKeys(
  em: EntityManager,
  box: SecretBox,
  scope: TenantScope,
  keys: {
    metaReadKey: Buffer;
    fileReadKey: Buffer;
    fileReadKeyDiversification?: FileReadKeyDiversification | null | undefined;
  },
): Promise<Date> {
  const updatedAt = new Date();
  await em.upsert(ChipKeys, {
    companyId: scope.companyId,
    environment: scope.environment,
    metaReadKey: box.seal(keys.metaReadKey, chipKeySealingContext(scope, 'meta')),
    fileReadKey: box.seal(keys.fileReadKey, chipKeySealingContext(scope, 'file')),
    fileReadKeyDiversification: keys.fileReadKeyDiversification ?? null,
    updatedAt,
  });
  return updatedAt;
}

export async function chipKeysStatus(
  em: EntityManager,
  scope: TenantScope,
): Promise<{
  source: 'configured' | 'factory_default' | 'missing';
  updatedAt: Date | null;
  fileReadKeyDiversification: FileReadKeyDiversification | null;
}> {
  const row = await em.findOne(ChipKeys, { companyId: scope.companyId, environment: scope.environment });
  if (row) {
    return {
      source: 'configured',
      updatedAt: row.updatedAt,
      fileReadKeyDiversification: row.fileReadKeyDiversification ?? null,
    };
  }
  return {
    source: scope.environment === 'test' ? 'factory_default' : 'missing',
    updatedAt: null,
    fileReadKeyDiversification: null,
  };
}

/** A company's stored SDM keys, still sealed (the `chip_keys` row's two columns). */
export interface SealedSunKeys {
  metaReadKey: Uint8Array;
  fileReadKey: Uint8Array;
  fileReadKeyDiversification: FileReadKeyDiversification | null;
}

/**
 * The SDM keys to verify this company's taps with, from its stored row (absent: none configured). The test
 * environment falls back to NXP's factory default (all-zero) keys so AN12196's examples verify out of the
 * box; live requires configured keys.
 */
export function openSunKeys(box: SecretBox, scope: TenantScope, sealed: SealedSunKeys | null): SunKeys {
  if (sealed) {
    const diversification = sealed.fileReadKeyDiversification;
    return {
      metaReadKey: box.open(Buffer.from(sealed.metaReadKey), chipKeySealingContext(scope, 'meta')),
      fileReadKey: box.open(Buffer.from(sealed.fileReadKey), chipKeySealingContext(scope, 'file')),
      ...(diversification
        ? {
            fileReadKeyDiversification: {
              systemIdentifier: Buffer.from(diversification.systemIdentifier, 'hex'),
            },
          }
        : {}),
    };
  }
  if (scope.environment === 'test')
    return { metaReadKey: FACTORY_DEFAULT_KEY, fileReadKey: FACTORY_DEFAULT_KEY };
  throw chipKeysNotConfigured();
}

export function chipKeysNotConfigured(): DomainError {
  return new DomainError(
    'conflict',
    'chip_keys_not_configured',
    'No SUN keys are configured for the live environment: set them with PUT /v1/dpp/chip-keys.',
  );
}
