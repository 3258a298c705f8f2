import { findLevelById } from '../levels/levels.ts';
import { dppIdOf } from '../record/passport-header.ts';
import { levelFacts } from '../views/level-view.ts';
import {
  type AasScope,
  notFound,
  type PassportView,
  passportOfShellId,
  type ServedSubmodel,
  viewOf,
} from './aas-repository.ts';
import { decodeIdentifier } from './identifiers.ts';
import { levelAas, serviceUidOfLevelShellId } from './level-shell.ts';

/**
 * Model and batch passports in the AAS API (docs/granularity.md "On the resolver"): read by their shell's id
 * (`…/aas/{environment}/levels/{serviceUid}`, as `format=aas` on their Digital Link names it), with their
 * submodels, as an item's shell is read by its id. They are not in the listings, which page items by token id.
 * Everyone reads the same (a level's public data only; its submodels hold no restricted element).
 */
async function levelView(scope: AasScope, id: string): Promise<PassportView | undefined> {
  const serviceUid = serviceUidOfLevelShellId(id, scope.publicBaseUrl, scope.environment);
  if (!serviceUid) return undefined;
  const level = await findLevelById(scope.em, scope.environment, dppIdOf(serviceUid));
  if (!level) throw notFound(`The shell ${id.slice(0, 200)}`);
  const { shell, submodels } = levelAas(await levelFacts(scope.em, level), scope.publicBaseUrl);
  return { shell, submodels, withheld: [], full: () => [] };
}

/** The shell an (encoded) AAS identifier names, an item's or a level's, as this caller sees it. */
export async function viewOfShellId(scope: AasScope, encodedId: string): Promise<PassportView> {
  const level = await levelView(scope, decodeIdentifier(encodedId, 'The shell identifier'));
  return level ?? viewOf(scope, await passportOfShellId(scope, encodedId));
}

/**
 * A level's submodel by its (decoded) id, under the shell `shellId` when given; undefined when the id names no
 * level's shell (an item's submodel, or none).
 */
export async function levelSubmodel(
  scope: AasScope,
  id: string,
  shellId?: string,
): Promise<{ submodel: ServedSubmodel; view: PassportView } | undefined> {
  const match = /^(.*)\/submodels\/([A-Za-z]+)$/.exec(id);
  const owner = match?.[1] ?? (shellId === undefined ? undefined : shellId);
  if (owner === undefined || !serviceUidOfLevelShellId(owner, scope.publicBaseUrl, scope.environment)) {
    return undefined;
  }
  const view =
    match && (shellId === undefined || shellId === match[1]) ? await levelView(scope, owner) : undefined;
  const submodel = view?.submodels.find((candidate) => candidate.id === id);
  if (!view || !submodel) throw notFound(`The submodel ${id.slice(0, 200)}`);
  return { submodel, view };
}
