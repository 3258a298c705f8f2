import type { EntityManager } from '@mikro-orm/postgresql';
import type { Environment } from '../../platform/config/config.ts';
import { DomainError } from '../../platform/errors.ts';
import type { BatterySubmodel } from '../../standards/aas/battery-elements.ts';
import type { AasV3Submodel } from '../../standards/aas/elements.ts';
import { SEMANTICS } from '../../standards/aas/semantics.ts';
import { digitalLink } from '../../standards/gs1/digital-link.ts';
import { ROLES, type Role } from '../content/disclosure.ts';
import {
  type AasPassportRow,
  aasPassportContents,
  findAasPassport,
  listAasPassports,
} from './aas-passports.ts';
import {
  type AasV3Shell,
  passportShell,
  passportSubmodels,
  SUBMODEL_ID_SHORTS,
  submodelReference,
} from './aas-v3.ts';
import { BATTERY_SUBMODEL_ID_SHORTS, servedBatterySubmodels } from './battery/battery-served.ts';
import { BATTERY_SUBMODEL_SEMANTIC_IDS } from './battery/battery-submodels.ts';
import { decodeIdentifier, isTokenId, parseSubmodelId, tokenIdOfShellId } from './identifiers.ts';
import { elementAt } from './submodel-views.ts';

/**
 * The read operations of the AAS repository and submodel repository (IDTA-01002 3.0, SSP-002 profiles) over
 * an environment's passports: every active passport is listed (in token id order, keyset cursors); any
 * passport, whatever its state, is read by its identifier (as the resolver reads it).
 */
export interface AasScope {
  em: EntityManager;
  environment: Environment;
  publicBaseUrl: string;
  /**
   * The caller's disclosure roles for one passport (api/routes/aas/common.ts: the credential it sent,
   * callerRoles). Asked only for passports holding product-group data. Absent: `public` only.
   */
  rolesFor?: ((passport: AasPassportRow) => Promise<ReadonlySet<Role>>) | undefined;
  /** Whether the request carried a credential (a withheld submodel: 403 with one, 401 without). */
  credential?: boolean | undefined;
}

/** A submodel as served: one of every passport's four, or a product group's (IDTA-02035 battery). */
export type ServedSubmodel = AasV3Submodel | BatterySubmodel;

/** Every submodel idShort in the order a shell lists them: every passport's four, then the battery's. */
export const ALL_SUBMODEL_ID_SHORTS: readonly string[] = [
  ...SUBMODEL_ID_SHORTS,
  ...BATTERY_SUBMODEL_ID_SHORTS,
];
const BATTERY_ID_SHORTS: ReadonlySet<string> = new Set(BATTERY_SUBMODEL_ID_SHORTS);
const BATTERY_GROUP = 'battery';

/** One passport as this caller sees it: its shell (references to the served submodels) and those submodels. */
interface PassportView {
  shell: AasV3Shell;
  submodels: ServedSubmodel[];
  /** Submodels that exist for the brand but are not served to this caller. */
  withheld: string[];
  /** The battery submodels uncut (to tell a withheld element from one that does not exist). */
  full: () => BatterySubmodel[];
}

type Contents = Awaited<ReturnType<typeof aasPassportContents>>;

const PUBLIC_ROLES: ReadonlySet<Role> = new Set<Role>(['public']);

async function contentsOf(scope: AasScope, passports: AasPassportRow[]): Promise<Contents> {
  const pinned = passports.filter((passport) =>
    (passport.productGroupSpecificationIds ?? []).some((id) =>
      id.startsWith('urn:dpp-service:spec:battery:'),
    ),
  );
  return aasPassportContents(
    scope.em,
    pinned.map((passport) => passport.passportId),
    BATTERY_GROUP,
  );
}

async function viewOf(scope: AasScope, passport: AasPassportRow, contents?: Contents): Promise<PassportView> {
  const base = passportSubmodels(passport, scope.publicBaseUrl);
  const shell = passportShell(passport, scope.publicBaseUrl);
  const content = (contents ?? (await contentsOf(scope, [passport]))).get(passport.passportId);
  let battery: { served: BatterySubmodel[]; withheld: string[] } = { served: [], withheld: [] };
  let full: () => BatterySubmodel[] = () => [];
  if (content) {
    const facts = {
      shellId: shell.id,
      digitalLink: digitalLink(scope.publicBaseUrl, passport.environment, passport.gtin, passport.tokenId),
      serialNumber: passport.tokenId,
    };
    const roles = scope.rolesFor ? await scope.rolesFor(passport) : PUBLIC_ROLES;
    battery = servedBatterySubmodels(facts, content, roles);
    full = () => servedBatterySubmodels(facts, content, new Set(ROLES)).served;
  }
  const submodels: ServedSubmodel[] = [...base, ...battery.served];
  return {
    shell: { ...shell, submodels: submodels.map((submodel) => submodelReference(submodel.id)) },
    submodels,
    withheld: battery.withheld,
    full,
  };
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

async function passportOfShellId(scope: AasScope, encodedId: string): Promise<AasPassportRow> {
  const id = decodeIdentifier(encodedId, 'The shell identifier');
  const tokenId = tokenIdOfShellId(id, scope.publicBaseUrl, scope.environment);
  const passport = tokenId && (await findAasPassport(scope.em, scope.environment, tokenId));
  if (!passport) throw notFound(`The shell ${id.slice(0, 200)}`);
  return passport;
}

export async function getShell(scope: AasScope, encodedId: string): Promise<AasV3Shell> {
  return (await viewOf(scope, await passportOfShellId(scope, encodedId))).shell;
}

/** 401 without a credential, 403 with one that does not read it (as the EN 18222 reads answer). */
function withheldError(scope: AasScope, what: string): DomainError {
  return scope.credential
    ? new DomainError('forbidden', 'not_disclosed', `Your roles do not read ${what}.`)
    : new DomainError(
        'unauthenticated',
        'credential_required',
        `${what} is not public: send a credential of a company granted a role that reads it.`,
      );
}

async function submodelWithView(
  scope: AasScope,
  encodedSubmodelId: string,
  encodedShellId?: string,
): Promise<{ submodel: ServedSubmodel; view: PassportView }> {
  const shellPassport =
    encodedShellId === undefined ? undefined : await passportOfShellId(scope, encodedShellId);
  const id = decodeIdentifier(encodedSubmodelId, 'The submodel identifier');
  const parsed = parseSubmodelId(id, scope.publicBaseUrl, scope.environment);
  if (!parsed || (shellPassport && shellPassport.tokenId !== parsed.tokenId)) {
    throw notFound(`The submodel ${id.slice(0, 200)}`);
  }
  const passport = shellPassport ?? (await findAasPassport(scope.em, scope.environment, parsed.tokenId));
  if (!passport) throw notFound(`The submodel ${id.slice(0, 200)}`);
  const view = await viewOf(scope, passport);
  const submodel = view.submodels.find((s) => s.idShort === parsed.idShort);
  if (submodel) return { submodel, view };
  if (view.withheld.includes(parsed.idShort)) throw withheldError(scope, `The submodel ${parsed.idShort}`);
  throw notFound(`The submodel ${id.slice(0, 200)}`);
}

/**
 * A submodel by its identifier, as this caller is served it; under a shell (`encodedShellId`), only one of
 * that shell's. A battery submodel withheld from the caller: 401/403; one that does not exist: 404.
 */
export async function getSubmodel(
  scope: AasScope,
  encodedSubmodelId: string,
  encodedShellId?: string,
): Promise<ServedSubmodel> {
  return (await submodelWithView(scope, encodedSubmodelId, encodedShellId)).submodel;
}

/**
 * A served submodel and the element at `idShortPath` in it: 404 when there is none, 401/403 when the uncut
 * submodel has one that was cut for this caller.
 */
export async function getSubmodelElement(
  scope: AasScope,
  encodedSubmodelId: string,
  idShortPath: string,
  encodedShellId?: string,
): Promise<{ submodel: ServedSubmodel; element: ReturnType<typeof elementAt> }> {
  const { submodel, view } = await submodelWithView(scope, encodedSubmodelId, encodedShellId);
  try {
    return { submodel, element: elementAt(submodel, idShortPath) };
  } catch (error) {
    const full = view.full().find((candidate) => candidate.id === submodel.id);
    if (!(error instanceof DomainError) || error.kind !== 'not_found' || !full) throw error;
    try {
      elementAt(full, idShortPath);
    } catch {
      throw error;
    }
    throw withheldError(scope, `The element ${idShortPath}`);
  }
}

export interface SubmodelFilter {
  idShort?: string | undefined;
  /** A decoded semanticId (the submodel's semantic id value). */
  semanticId?: string | undefined;
}

const SUBMODEL_SEMANTIC_IDS: Record<string, string> = {
  Nameplate: 'https://admin-shell.io/idta/nameplate/3/0/Nameplate',
  DppMeta: 'urn:samm:io.admin-shell.idta.dpp_meta:1.0.0#DppMeta',
  SustainabilityData: SEMANTICS.sustainability,
  Security: SEMANTICS.security,
  ...BATTERY_SUBMODEL_SEMANTIC_IDS,
};

/** How many passports one /submodels page reads at most before it answers with what it found and a cursor. */
const SCAN_LIMIT = 1_000;

/**
 * Every submodel of the listed passports this caller is served: each passport's, in shell order (the four of
 * every passport, then a battery's served ones), passport after passport. The cursor names the last submodel
 * given (`tokenId.idShort`); the next page starts after it. A page whose filter matches few passports (a
 * battery submodel's idShort: only passports holding battery data are read) stops after SCAN_LIMIT passports
 * and answers what it found with a cursor past the last passport read (possibly fewer than `limit`).
 */
export async function listSubmodels(
  scope: AasScope,
  page: { limit: number; cursor?: string | undefined },
  filter: SubmodelFilter = {},
): Promise<Page<ServedSubmodel>> {
  const limit = Math.min(page.limit, MAX_PAGE);
  const kinds = new Set(
    ALL_SUBMODEL_ID_SHORTS.filter(
      (idShort) =>
        (filter.idShort === undefined || filter.idShort === idShort) &&
        (filter.semanticId === undefined || filter.semanticId === SUBMODEL_SEMANTIC_IDS[idShort]),
    ),
  );
  let from: { tokenId: string; next: number } | undefined;
  if (page.cursor !== undefined) {
    // `tokenId.idShort`; `tokenId.n` (an index into the four of every passport) is the form of earlier pages.
    const match = /^(\d+)\.(\d|[A-Za-z]+)$/.exec(decodeCursor(page.cursor));
    const named = match?.[2] ?? '';
    const index = /^\d$/.test(named)
      ? Number(named) < SUBMODEL_ID_SHORTS.length
        ? Number(named)
        : -1
      : ALL_SUBMODEL_ID_SHORTS.indexOf(named);
    if (!match || !isTokenId(match[1]!) || index < 0) throw invalidCursor();
    from = { tokenId: match[1]!, next: index + 1 };
  }
  if (kinds.size === 0) return { result: [] };
  const batteryOnly = [...kinds].every((idShort) => BATTERY_ID_SHORTS.has(idShort));
  const perPassport = [...kinds].filter((idShort) => !BATTERY_ID_SHORTS.has(idShort)).length;
  const batch = batteryOnly ? limit + 1 : Math.ceil((limit + 1) / perPassport) + 1;
  const items: { submodel: ServedSubmodel; tokenId: string; idShort: string }[] = [];
  let scanned = 0;
  let start: { from?: string; after?: string } = from ? { from: from.tokenId } : {};
  for (;;) {
    const passports = await listAasPassports(scope.em, scope.environment, {
      limit: batch,
      ...start,
      ...(batteryOnly ? { group: BATTERY_GROUP } : {}),
    });
    const contents = await contentsOf(scope, passports);
    for (const passport of passports) {
      const view = await viewOf(scope, passport, contents);
      for (const submodel of view.submodels) {
        const index = ALL_SUBMODEL_ID_SHORTS.indexOf(submodel.idShort);
        if (!kinds.has(submodel.idShort)) continue;
        if (from && passport.tokenId === from.tokenId && index < from.next) continue;
        items.push({ submodel, tokenId: passport.tokenId, idShort: submodel.idShort });
      }
      scanned += 1;
      if (items.length > limit) break;
    }
    if (items.length > limit || passports.length < batch) break;
    const last = passports.at(-1)!.tokenId;
    if (scanned >= SCAN_LIMIT) {
      // Past the last passport read: its every submodel is behind the cursor.
      return {
        result: items.map((item) => item.submodel),
        cursor: encodeCursor(`${last}.${ALL_SUBMODEL_ID_SHORTS.at(-1)}`),
      };
    }
    start = { after: last };
  }
  const shown = items.slice(0, limit);
  const last = shown.at(-1);
  return {
    result: shown.map((item) => item.submodel),
    ...(items.length > limit && last ? { cursor: encodeCursor(`${last.tokenId}.${last.idShort}`) } : {}),
  };
}

/** The submodels of the serialisation: those of the given shells and the given submodels (by identifier). */
export async function shellsAndSubmodels(
  scope: AasScope,
  shellIds: string[],
  submodelIds: string[],
): Promise<{ shells: AasV3Shell[]; submodels: ServedSubmodel[] }> {
  const shells: AasV3Shell[] = [];
  const submodels = new Map<string, ServedSubmodel>();
  const add = (view: PassportView) => {
    shells.push(view.shell);
    for (const submodel of view.submodels) submodels.set(submodel.id, submodel);
  };
  if (shellIds.length === 0 && submodelIds.length === 0) {
    // No ids: the first page of the repository (a whole repository is not one document).
    const page = await listAasPassports(scope.em, scope.environment, { limit: MAX_PAGE });
    const contents = await contentsOf(scope, page);
    for (const passport of page) add(await viewOf(scope, passport, contents));
    return { shells, submodels: [...submodels.values()] };
  }
  for (const encoded of shellIds) add(await viewOf(scope, await passportOfShellId(scope, encoded)));
  for (const encoded of submodelIds) {
    const submodel = await getSubmodel(scope, encoded);
    submodels.set(submodel.id, submodel);
  }
  return { shells, submodels: [...submodels.values()] };
}
