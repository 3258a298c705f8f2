import type { EntityManager } from '@mikro-orm/postgresql';
import type { Environment } from '../../platform/config/config.ts';
import { DomainError } from '../../platform/errors.ts';
import type { BatterySubmodel } from '../../standards/aas/battery-elements.ts';
import type { AasV3Submodel } from '../../standards/aas/elements.ts';
import { digitalLink } from '../../standards/gs1/digital-link.ts';
import { ROLES, type Role } from '../content/disclosure.ts';
import { type AasPassportRow, aasPassportContents, findAasPassport } from './aas-passports.ts';
import {
  type AasV3Shell,
  passportShell,
  passportSubmodels,
  SUBMODEL_ID_SHORTS,
  submodelReference,
} from './aas-v3.ts';
import { BATTERY_SUBMODEL_ID_SHORTS, servedBatterySubmodels } from './battery/battery-served.ts';
import { decodeIdentifier, tokenIdOfShellId } from './identifiers.ts';

/**
 * The read operations of the AAS repository and submodel repository (IDTA-01002 3.0, SSP-002 profiles) over
 * an environment's passports: every active passport is listed (in token id order, keyset cursors); any
 * passport, whatever its state, is read by its identifier (as the resolver reads it). Here: the scope, a
 * passport as a caller sees it, paging; the operations are in aas-shells.ts, aas-submodels.ts and
 * aas-serialization.ts.
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
export const BATTERY_ID_SHORTS: ReadonlySet<string> = new Set(BATTERY_SUBMODEL_ID_SHORTS);
export const BATTERY_GROUP = 'battery';

/** One passport as this caller sees it: its shell (references to the served submodels) and those submodels. */
export interface PassportView {
  shell: AasV3Shell;
  submodels: ServedSubmodel[];
  /** Submodels that exist for the brand but are not served to this caller. */
  withheld: string[];
  /** The battery submodels uncut (to tell a withheld element from one that does not exist). */
  full: () => BatterySubmodel[];
}

type Contents = Awaited<ReturnType<typeof aasPassportContents>>;

const PUBLIC_ROLES: ReadonlySet<Role> = new Set<Role>(['public']);

export async function contentsOf(scope: AasScope, passports: AasPassportRow[]): Promise<Contents> {
  // Every passport: an item may hold no battery data of its own and inherit its model's or batch's.
  return aasPassportContents(
    scope.em,
    passports.map((passport) => passport.passportId),
    BATTERY_GROUP,
  );
}

export async function viewOf(
  scope: AasScope,
  passport: AasPassportRow,
  contents?: Contents,
): Promise<PassportView> {
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

export function notFound(what: string): DomainError {
  return new DomainError('not_found', 'aas_not_found', `${what} was not found.`);
}

export function invalidCursor(): DomainError {
  return new DomainError('invalid', 'invalid_cursor', 'The cursor is not one this API handed out.');
}

/** Cursors are opaque: base64url of the last token id given (shells) or of `tokenId.index` (submodels). */
export function encodeCursor(value: string): string {
  return Buffer.from(value, 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string): string {
  try {
    return decodeIdentifier(cursor, 'The cursor');
  } catch {
    throw invalidCursor();
  }
}

export async function passportOfShellId(scope: AasScope, encodedId: string): Promise<AasPassportRow> {
  const id = decodeIdentifier(encodedId, 'The shell identifier');
  const tokenId = tokenIdOfShellId(id, scope.publicBaseUrl, scope.environment);
  const passport = tokenId && (await findAasPassport(scope.em, scope.environment, tokenId));
  if (!passport) throw notFound(`The shell ${id.slice(0, 200)}`);
  return passport;
}
