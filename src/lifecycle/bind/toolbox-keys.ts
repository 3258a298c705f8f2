import { createPublicKey, type JsonWebKey, type KeyObject, randomUUID, verify } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ToolboxKey } from '../../platform/db/entities/index.ts';
import { ownedBy, type TenantScope } from '../../platform/db/tenant-scope.ts';
import { DomainError } from '../../platform/errors.ts';

type Algorithm = ToolboxKey['algorithm'];

/** Reads a PEM (SPKI) or JWK public key; only Ed25519 and P-256 are accepted. */
export function parseToolboxPublicKey(input: string | Record<string, unknown>): {
  algorithm: Algorithm;
  pem: string;
} {
  let key: KeyObject;
  try {
    key =
      typeof input === 'string'
        ? createPublicKey({ key: input, format: 'pem' })
        : createPublicKey({ key: input as JsonWebKey, format: 'jwk' });
  } catch (error) {
    throw new DomainError(
      'invalid',
      'invalid_public_key',
      `publicKey is not a readable public key: ${(error as Error).message}`,
    );
  }
  const algorithm = algorithmOf(key);
  if (!algorithm) {
    throw new DomainError(
      'invalid',
      'unsupported_key_type',
      'publicKey must be an Ed25519 or P-256 public key.',
    );
  }
  return { algorithm, pem: key.export({ type: 'spki', format: 'pem' }).toString() };
}

function algorithmOf(key: KeyObject): Algorithm | undefined {
  if (key.type !== 'public') return undefined;
  if (key.asymmetricKeyType === 'ed25519') return 'Ed25519';
  if (key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1') return 'P-256';
  return undefined;
}

export async function registerToolboxKey(
  em: EntityManager,
  scope: TenantScope,
  input: { name: string; publicKey: string | Record<string, unknown> },
): Promise<ToolboxKey> {
  const { algorithm, pem } = parseToolboxPublicKey(input.publicKey);
  const key = em.create(ToolboxKey, {
    id: randomUUID(),
    ...ownedBy(scope),
    name: input.name,
    algorithm,
    publicKeyPem: pem,
    revokedAt: null,
  });
  await em.flush();
  return key;
}

export function listToolboxKeys(em: EntityManager): Promise<ToolboxKey[]> {
  return em.find(ToolboxKey, { revokedAt: null }, { orderBy: { createdAt: 'asc', id: 'asc' } });
}

/** Revokes a key (idempotent); an unknown id is a 404. */
export async function revokeToolboxKey(em: EntityManager, id: string): Promise<void> {
  const key = await em.findOne(ToolboxKey, { id });
  if (!key)
    throw new DomainError('not_found', 'toolbox_key_not_found', `No toolbox key ${id} in this environment.`);
  key.revokedAt ??= new Date();
  await em.flush();
}

/** The bytes a toolbox signs for a binding: UTF-8 of `${internalId}:${chipUid}` (canonical UID). */
export function bindingMessage(internalId: string, chipUid: string): Buffer {
  return Buffer.from(`${internalId}:${chipUid}`, 'utf8');
}

export function signatureMatches(
  key: Pick<ToolboxKey, 'algorithm' | 'publicKeyPem'>,
  message: Buffer,
  signature: Buffer,
): boolean {
  try {
    if (key.algorithm === 'Ed25519') return verify(null, message, key.publicKeyPem, signature);
    // P-256: raw r||s (64 bytes, as WebCrypto signs) or DER.
    const dsaEncoding = signature.length === 64 ? 'ieee-p1363' : 'der';
    return verify('sha256', message, { key: key.publicKeyPem, dsaEncoding }, signature);
  } catch {
    return false;
  }
}

/** The unrevoked toolbox key that signed the binding, or 422 invalid_toolbox_signature. */
export async function verifyToolboxSignature(
  em: EntityManager,
  input: { internalId: string; chipUid: string; signatureHex: string },
): Promise<ToolboxKey> {
  const message = bindingMessage(input.internalId, input.chipUid);
  const signature = Buffer.from(input.signatureHex, 'hex');
  for (const key of await listToolboxKeys(em)) {
    if (signatureMatches(key, message, signature)) return key;
  }
  throw new DomainError(
    'rejected',
    'invalid_toolbox_signature',
    `The signature over "${input.internalId}:${input.chipUid}" matches no active toolbox key of this environment.`,
  );
}
