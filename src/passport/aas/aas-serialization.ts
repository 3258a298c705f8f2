import { listAasPassports } from './aas-passports.ts';
import {
  type AasScope,
  contentsOf,
  MAX_PAGE,
  type PassportView,
  type ServedSubmodel,
  viewOf,
} from './aas-repository.ts';
import { getSubmodel } from './aas-submodels.ts';
import type { AasV3Shell } from './aas-v3.ts';
import { viewOfShellId } from './level-aas-view.ts';

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
  for (const encoded of shellIds) add(await viewOfShellId(scope, encoded));
  for (const encoded of submodelIds) {
    const submodel = await getSubmodel(scope, encoded);
    submodels.set(submodel.id, submodel);
  }
  return { shells, submodels: [...submodels.values()] };
}
