import { DomainError } from '../../platform/errors.ts';
import { type AasPassportRow, findAasPassport, listAasPassports } from './aas-passports.ts';
import {
  type AasScope,
  contentsOf,
  decodeCursor,
  encodeCursor,
  invalidCursor,
  MAX_PAGE,
  type Page,
  viewOf,
} from './aas-repository.ts';
import { type AasV3Shell, passportShell } from './aas-v3.ts';
import { isTokenId } from './identifiers.ts';
import { viewOfShellId } from './level-aas-view.ts';

export interface ShellFilter {
  /** idShort of the shells to list (`Passport_{tokenId}`). */
  idShort?: string | undefined;
  /** Decoded assetIds: name/value pairs (globalAssetId, GTIN, SerialNumber). */
  assetIds?: { name: string; value: string }[] | undefined;
}

/** The single token id a filter narrows to, null when the filter matches nothing, undefined when no filter. */
function tokenOfFilter(scope: AasScope, filter: ShellFilter): string | null | undefined {
  let token: string | null | undefined;
  const narrow = (candidate: string | undefined) => {
    if (candidate === undefined || (token !== undefined && token !== candidate)) token = null;
    else token ??= candidate;
  };
  if (filter.idShort !== undefined) {
    const match = /^Passport_(\d+)$/.exec(filter.idShort);
    narrow(match && isTokenId(match[1]!) ? match[1] : undefined);
  }
  let gtinOnly = false;
  for (const { name, value } of filter.assetIds ?? []) {
    if (name === 'globalAssetId') {
      // The Digital Link as the shell states it: ours for this environment, with a token id as serial.
      const match = /\/01\/(\d{14})\/21\/(\d{1,78})$/.exec(value);
      const tokenId = match?.[2];
      const ours = match && tokenId && globalAssetIdOf(scope, match[1]!, tokenId) === value;
      narrow(ours && isTokenId(tokenId) ? tokenId : undefined);
    } else if (name === 'SerialNumber') narrow(isTokenId(value) ? value : undefined);
    else if (name === 'GTIN') gtinOnly = true;
    else token = null;
  }
  if (gtinOnly && token === undefined) {
    throw new DomainError(
      'invalid',
      'unsupported_asset_id_filter',
      'Filtering by GTIN alone is not supported; add the SerialNumber or use the globalAssetId (the Digital Link).',
    );
  }
  return token;
}

function globalAssetIdOf(scope: AasScope, gtin: string, tokenId: string): string {
  return passportShell(
    { environment: scope.environment, gtin, tokenId } as AasPassportRow,
    scope.publicBaseUrl,
  ).assetInformation.globalAssetId;
}

function matchesAssetIds(passport: AasPassportRow, filter: ShellFilter): boolean {
  return (filter.assetIds ?? []).every(({ name, value }) => name !== 'GTIN' || passport.gtin === value);
}

function listed(passport: AasPassportRow): boolean {
  return passport.status === 'ACTIVE' && passport.revokedAt === null;
}

export async function listShells(
  scope: AasScope,
  page: { limit: number; cursor?: string | undefined },
  filter: ShellFilter = {},
): Promise<Page<AasV3Shell>> {
  const limit = Math.min(page.limit, MAX_PAGE);
  const after = page.cursor === undefined ? undefined : decodeCursor(page.cursor);
  if (after !== undefined && !isTokenId(after)) throw invalidCursor();
  const token = tokenOfFilter(scope, filter);
  if (token === null) return { result: [] };
  if (token !== undefined) {
    if (after !== undefined) return { result: [] };
    const passport = await findAasPassport(scope.em, scope.environment, token);
    return {
      result:
        passport && listed(passport) && matchesAssetIds(passport, filter)
          ? [(await viewOf(scope, passport)).shell]
          : [],
    };
  }
  const passports = await listAasPassports(scope.em, scope.environment, { limit: limit + 1, after });
  const shown = passports.slice(0, limit);
  const contents = await contentsOf(scope, shown);
  const shells: AasV3Shell[] = [];
  for (const passport of shown) shells.push((await viewOf(scope, passport, contents)).shell);
  return {
    result: shells,
    ...(passports.length > limit ? { cursor: encodeCursor(shown.at(-1)!.tokenId) } : {}),
  };
}

/** A shell by its identifier: an item's, or a model's or batch's (level-aas-view.ts). */
export async function getShell(scope: AasScope, encodedId: string): Promise<AasV3Shell> {
  return (await viewOfShellId(scope, encodedId)).shell;
}
