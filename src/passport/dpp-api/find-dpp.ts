import type { EntityManager } from '@mikro-orm/postgresql';
import type { Environment } from '../../platform/config/config.ts';
import { DomainError } from '../../platform/errors.ts';
import { normalizeGtin } from '../../standards/gs1/gtin.ts';
import { dppIdOf, serviceUidOfDppId } from '../record/passport-header.ts';

/** The passport an EN 18222 read names. */
export interface DppRef {
  passportId: number;
  companyId: string;
  environment: Environment;
  tokenId: string;
  serviceUid: string;
}

interface Row {
  id: number;
  company_id: string;
  token_id: string;
  service_uid: string;
  gtin: string | null;
}

const toRef = (row: Row, environment: Environment): DppRef => ({
  passportId: row.id,
  companyId: row.company_id,
  environment,
  tokenId: row.token_id,
  serviceUid: row.service_uid,
});

/** The passport of a dppId (`urn:uuid:…` or the bare UUID) in the environment; 400 for another form, 404 none. */
export async function findDppById(
  em: EntityManager,
  environment: Environment,
  dppId: string,
): Promise<DppRef> {
  const serviceUid = serviceUidOfDppId(dppId);
  if (!serviceUid) {
    throw new DomainError(
      'invalid',
      'invalid_dpp_id',
      'A dppId is urn:uuid:<uuid> (the header’s digitalProductPassportId), percent-encoded, or the bare UUID.',
    );
  }
  const [row] = await em.execute<Row[]>(
    'select id, company_id, token_id, service_uid, gtin from passports where service_uid = ? and environment = ?',
    [serviceUid, environment],
  );
  if (!row) throw new DomainError('not_found', 'dpp_not_found', `No passport ${dppIdOf(serviceUid)}.`);
  return toRef(row, environment);
}

/** A product identifier's GS1 keys: GTIN (AI 01, as 14 digits) and serial (AI 21, our token id). */
export interface ProductKey {
  gtin: string;
  serial: string;
}

const ITEM_PATH = /\/01\/(\d{8}|\d{12,14})\/21\/([^/?#]+)\/?$/;

/**
 * The GS1 keys of a unique product identifier: a GS1 Digital Link URI (ours, `…/01/{gtin}/21/{serial}`, or the
 * same keys on any other http(s) host, as GS1 Digital Link makes the keys, not the host, the identity).
 * Undefined for anything else (no serial, a bad GTIN check digit, not a URI).
 */
export function parseProductId(productId: string): ProductKey | undefined {
  let url: URL;
  try {
    url = new URL(productId);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  const match = ITEM_PATH.exec(url.pathname);
  if (!match) return undefined;
  const gtin = normalizeGtin(match[1]!);
  let serial: string;
  try {
    serial = decodeURIComponent(match[2]!);
  } catch {
    return undefined;
  }
  return gtin && /^[1-9]\d{0,77}$/.test(serial) ? { gtin, serial } : undefined;
}

const passportGtin = (gtin: string | null) => gtin ?? '00000000000000';

/** The passports of many product identifiers at once (one statement); a map from each found productId. */
export async function findDppsByProductIds(
  em: EntityManager,
  environment: Environment,
  productIds: readonly string[],
): Promise<Map<string, DppRef>> {
  const keys = new Map<string, ProductKey>();
  for (const productId of productIds) {
    const key = parseProductId(productId);
    if (key) keys.set(productId, key);
  }
  const found = new Map<string, DppRef>();
  if (keys.size === 0) return found;
  const serials = [...new Set([...keys.values()].map((key) => key.serial))];
  const rows = await em.execute<Row[]>(
    `select id, company_id, token_id, service_uid, gtin from passports
     where environment = ? and token_id in (${serials.map(() => '?').join(', ')})`,
    [environment, ...serials],
  );
  const bySerial = new Map(rows.map((row) => [row.token_id, row]));
  for (const [productId, key] of keys) {
    const row = bySerial.get(key.serial);
    if (row && passportGtin(row.gtin) === key.gtin) found.set(productId, toRef(row, environment));
  }
  return found;
}

/** The passport of one unique product identifier; 404 when none (or when it is no GS1 Digital Link of an item). */
export async function findDppByProductId(
  em: EntityManager,
  environment: Environment,
  productId: string,
): Promise<DppRef> {
  const ref = (await findDppsByProductIds(em, environment, [productId])).get(productId);
  if (!ref) {
    throw new DomainError(
      'not_found',
      'dpp_not_found',
      'No passport has this unique product identifier (a GS1 Digital Link URI …/01/{gtin}/21/{serial}).',
    );
  }
  return ref;
}
