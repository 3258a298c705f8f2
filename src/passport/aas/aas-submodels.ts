import { DomainError } from '../../platform/errors.ts';
import { SEMANTICS } from '../../standards/aas/semantics.ts';
import { findAasPassport, listAasPassports } from './aas-passports.ts';
import {
  type AasScope,
  ALL_SUBMODEL_ID_SHORTS,
  BATTERY_GROUP,
  BATTERY_ID_SHORTS,
  contentsOf,
  decodeCursor,
  encodeCursor,
  invalidCursor,
  MAX_PAGE,
  notFound,
  type Page,
  type PassportView,
  passportOfShellId,
  type ServedSubmodel,
  viewOf,
} from './aas-repository.ts';
import { SUBMODEL_ID_SHORTS } from './aas-v3.ts';
import { BATTERY_SUBMODEL_SEMANTIC_IDS } from './battery/battery-submodels.ts';
import { decodeIdentifier, isTokenId, parseSubmodelId } from './identifiers.ts';
import { levelSubmodel } from './level-aas-view.ts';
import { elementAt } from './submodel-views.ts';

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
  const level = await levelSubmodel(
    scope,
    decodeIdentifier(encodedSubmodelId, 'The submodel identifier'),
    encodedShellId === undefined ? undefined : decodeIdentifier(encodedShellId, 'The shell identifier'),
  );
  if (level) return level;
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
