import type { Environment } from '../../platform/config/config.ts';
import { DomainError } from '../../platform/errors.ts';
import { SUBMODEL_ID_SHORTS } from './aas-v3.ts';
import { BATTERY_SUBMODEL_ID_SHORTS } from './battery/battery-served.ts';
import { shellId } from './shell.ts';

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;
const TOKEN_ID = /^[1-9]\d{0,77}$/;
const fatalUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * An identifier as the AAS API carries it in paths and queries: base64url (RFC 4648 §5) of its UTF-8 text,
 * without padding (padding is tolerated). Anything else, including bytes that are not UTF-8, is a 400.
 */
export function decodeIdentifier(encoded: string, what: string): string {
  const bare = encoded.replace(/=+$/, '');
  const padded = encoded.length !== bare.length;
  if (
    !BASE64URL.test(encoded) ||
    bare.length % 4 === 1 ||
    (padded && encoded.length % 4 !== 0) ||
    encoded.length > 4000
  ) {
    throw new DomainError('invalid', 'invalid_identifier', `${what} is not base64url-encoded.`);
  }
  const bytes = Buffer.from(bare, 'base64url');
  if (bytes.toString('base64url') !== bare) {
    throw new DomainError('invalid', 'invalid_identifier', `${what} is not base64url-encoded.`);
  }
  try {
    return fatalUtf8.decode(bytes);
  } catch {
    throw new DomainError('invalid', 'invalid_identifier', `${what} does not decode to UTF-8 text.`);
  }
}

export function encodeIdentifier(id: string): string {
  return Buffer.from(id, 'utf8').toString('base64url');
}

/** The token id a shell id of this environment names (`{PUBLIC_BASE_URL}/aas/{environment}/{tokenId}`). */
export function tokenIdOfShellId(
  id: string,
  publicBaseUrl: string,
  environment: Environment,
): string | undefined {
  const prefix = shellId(publicBaseUrl, environment, '');
  if (!id.startsWith(prefix)) return undefined;
  const tokenId = id.slice(prefix.length);
  return TOKEN_ID.test(tokenId) ? tokenId : undefined;
}

/**
 * The token id and submodel a submodel id of this environment names (`{shell id}/submodels/{idShort}`): one
 * of every passport's four or of a battery passport's (whether that passport has it is the caller's to check).
 */
export function parseSubmodelId(
  id: string,
  publicBaseUrl: string,
  environment: Environment,
): { tokenId: string; idShort: string } | undefined {
  const match = /^(.*)\/submodels\/([A-Za-z]+)$/.exec(id);
  if (!match) return undefined;
  const tokenId = tokenIdOfShellId(match[1]!, publicBaseUrl, environment);
  const idShort = [...SUBMODEL_ID_SHORTS, ...BATTERY_SUBMODEL_ID_SHORTS].find((name) => name === match[2]);
  return tokenId && idShort ? { tokenId, idShort } : undefined;
}

export function isTokenId(value: string): boolean {
  return TOKEN_ID.test(value);
}
