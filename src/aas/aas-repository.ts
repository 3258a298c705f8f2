import type { EntityManager } from '@mikro-orm/postgresql';
import type { Environment } from '../config/config.ts';
import { DomainError } from '../errors.ts';
import { type AasPassportRow, findAasPassport, listAasPassports } from './aas-passports.ts';
import { type AasV3Shell, passportShell, passportSubmodels, SUBMODEL_ID_SHORTS } from './aas-v3.ts';
import type { AasV3Submodel } from './elements.ts';
import { decodeIdentifier, isTokenId, parseSubmodelId, tokenIdOfShellId } from './identifiers.ts';
import { SEMANTICS } from './semantics.ts';

/**
 * The read operations of the AAS repository and submodel repository (IDTA-01002 3.0, SSP-002 profiles) over
 * an environment's passports: every active passport is listed (in token id order, keyset cursors); any
 * passport, whatever its state, is read by its identifier (as the resolver reads it).
 */
export interface AasScope {
  em: EntityManager;
  environment: Environment;
  publicBaseUrl: string;
}

/** The largest page (a larger `limit` is served as this many, with a cursor to the rest). */
export const MAX_PAGE = 100;

export interface Page<T> {
  result: T[];
  /** Where the next page starts; absent on the last page. */
  cursor?: string;
}

function notFound(what: string): DomainError {
  return new DomainError('not_found', 'aas_not_found', `${what} was not found.`);
}

function invalidCursor(): DomainError {
  return new DomainError('invalid', 'invalid_cursor', 'The cursor is not one this API handed out.');
}

function listed(passport: AasPassportRow): boolean {
  return passport.status === 'ACTIVE' && passport.revokedAt === null;
}

/** Cursors are opaque: base64url of the last token id given (shells) or of `tokenId.index` (submodels). */
function encodeCursor(value: string): string {
  return Buffer.from(value, 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): string {
  try {
    return decodeIdentifier(cursor, 'The cursor');
  } catch {
    throw invalidCursor();
  }
}

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
          ? [passportShell(passport, scope.publicBaseUrl)]
          : [],
    };
  }
  const passports = await listAasPassports(scope.em, scope.environment, { limit: limit + 1, after });
  const shown = passports.slice(0, limit);
  return {
    result: shown.map((passport) => passportShell(passport, scope.publicBaseUrl)),
    ...(passports.length > limit ? { cursor: encodeCursor(shown.at(-1)!.tokenId) } : {}),
  };
}

async function passportOfShellId(scope: AasScope, encodedId: string): Promise<AasPassportRow> {
  const id = decodeIdentifier(encodedId, 'The shell identifier');
  const tokenId = tokenIdOfShellId(id, scope.publicBaseUrl, scope.environment);
  const passport = tokenId && (await findAasPassport(scope.em, scope.environment, tokenId));
  if (!passport) throw notFound(`The shell ${id.slice(0, 200)}`);
  return passport;
}

export async function getShell(scope: AasScope, encodedId: string): Promise<AasV3Shell> {
  return passportShell(await passportOfShellId(scope, encodedId), scope.publicBaseUrl);
}

/** A submodel by its identifier; under a shell (`encodedShellId`), only one of that shell's. */
export async function getSubmodel(
  scope: AasScope,
  encodedSubmodelId: string,
  encodedShellId?: string,
): Promise<AasV3Submodel> {
  const shellPassport =
    encodedShellId === undefined ? undefined : await passportOfShellId(scope, encodedShellId);
  const id = decodeIdentifier(encodedSubmodelId, 'The submodel identifier');
  const parsed = parseSubmodelId(id, scope.publicBaseUrl, scope.environment);
  if (!parsed || (shellPassport && shellPassport.tokenId !== parsed.tokenId)) {
    throw notFound(`The submodel ${id.slice(0, 200)}`);
  }
  const passport = shellPassport ?? (await findAasPassport(scope.em, scope.environment, parsed.tokenId));
  if (!passport) throw notFound(`The submodel ${id.slice(0, 200)}`);
  return passportSubmodels(passport, scope.publicBaseUrl).find((s) => s.idShort === parsed.idShort)!;
}

export interface SubmodelFilter {
  idShort?: string | undefined;
  /** A decoded semanticId (the submodel's semantic id value). */
  semanticId?: string | undefined;
}

const SUBMODEL_SEMANTIC_IDS: Record<(typeof SUBMODEL_ID_SHORTS)[number], string> = {
  Nameplate: 'https://admin-shell.io/idta/nameplate/3/0/Nameplate',
  DppMeta: 'urn:samm:io.admin-shell.idta.dpp_meta:1.0.0#DppMeta',
  SustainabilityData: SEMANTICS.sustainability,
  Security: SEMANTICS.security,
};

/**
 * Every submodel of the listed passports: each passport's four, in shell order, passport after passport. The
 * cursor names the last submodel given (`tokenId.index`); the next page starts at that passport again.
 */
export async function listSubmodels(
  scope: AasScope,
  page: { limit: number; cursor?: string | undefined },
  filter: SubmodelFilter = {},
): Promise<Page<AasV3Submodel>> {
  const limit = Math.min(page.limit, MAX_PAGE);
  const kinds = SUBMODEL_ID_SHORTS.filter(
    (idShort) =>
      (filter.idShort === undefined || filter.idShort === idShort) &&
      (filter.semanticId === undefined || filter.semanticId === SUBMODEL_SEMANTIC_IDS[idShort]),
  );
  let from: { tokenId: string; next: number } | undefined;
  if (page.cursor !== undefined) {
    const match = /^(\d+)\.(\d)$/.exec(decodeCursor(page.cursor));
    if (!match || !isTokenId(match[1]!)) throw invalidCursor();
    from = { tokenId: match[1]!, next: Number(match[2]) + 1 };
  }
  if (kinds.length === 0) return { result: [] };
  const items: { submodel: AasV3Submodel; tokenId: string; index: number }[] = [];
  const passports = await listAasPassports(scope.em, scope.environment, {
    limit: Math.ceil((limit + 1) / kinds.length) + 1,
    ...(from ? { from: from.tokenId } : {}),
  });
  for (const passport of passports) {
    const all = passportSubmodels(passport, scope.publicBaseUrl);
    kinds.forEach((idShort, index) => {
      if (from && passport.tokenId === from.tokenId && index < from.next) return;
      items.push({ submodel: all.find((s) => s.idShort === idShort)!, tokenId: passport.tokenId, index });
    });
    if (items.length > limit) break;
  }
  const shown = items.slice(0, limit);
  const last = shown.at(-1);
  return {
    result: shown.map((item) => item.submodel),
    ...(items.length > limit && last ? { cursor: encodeCursor(`${last.tokenId}.${last.index}`) } : {}),
  };
}

/** The submodels of the serialisation: those of the given shells and the given submodels (by identifier). */
export async function shellsAndSubmodels(
  scope: AasScope,
  shellIds: string[],
  submodelIds: string[],
): Promise<{ shells: AasV3Shell[]; submodels: AasV3Submodel[] }> {
  const shells: AasV3Shell[] = [];
  const submodels = new Map<string, AasV3Submodel>();
  if (shellIds.length === 0 && submodelIds.length === 0) {
    // No ids: the first page of the repository (a whole repository is not one document).
    const page = await listAasPassports(scope.em, scope.environment, { limit: MAX_PAGE });
    for (const passport of page) {
      shells.push(passportShell(passport, scope.publicBaseUrl));
      for (const submodel of passportSubmodels(passport, scope.publicBaseUrl))
        submodels.set(submodel.id, submodel);
    }
    return { shells, submodels: [...submodels.values()] };
  }
  for (const encoded of shellIds) {
    const passport = await passportOfShellId(scope, encoded);
    shells.push(passportShell(passport, scope.publicBaseUrl));
    for (const submodel of passportSubmodels(passport, scope.publicBaseUrl))
      submodels.set(submodel.id, submodel);
  }
  for (const encoded of submodelIds) {
    const submodel = await getSubmodel(scope, encoded);
    submodels.set(submodel.id, submodel);
  }
  return { shells, submodels: [...submodels.values()] };
}
