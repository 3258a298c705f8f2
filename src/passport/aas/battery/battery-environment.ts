import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError } from '../../../platform/errors.ts';
import type { BatterySubmodel } from '../../../standards/aas/battery-elements.ts';
import { digitalLink } from '../../../standards/gs1/digital-link.ts';
import { ROLES, type Role } from '../../content/disclosure.ts';
import type { DppRef } from '../../dpp-api/find-dpp.ts';
import { aasPassportContents, findAasPassport } from '../aas-passports.ts';
import { passportShell, passportSubmodels, submodelReference } from '../aas-v3.ts';
import { shellId } from '../shell.ts';
import { servedBatterySubmodels } from './battery-served.ts';

/**
 * A passport's whole AAS v3 environment: the shell and submodels the AAS API serves (its DppMeta listing the
 * pinned content specifications) plus the product group's submodels (for a battery: IDTA-02035 parts 1, 4, 5,
 * 7) that `roles` are served, by the AAS API's rule (battery-served.ts: a submodel only whole as its template
 * wants it, else left out, and out of the shell's list), so both AAS forms of a passport agree and every cut
 * stays template-conformant. What `GET /v1/dpps/{dppId}/content/{specId}?format=aas` answers.
 */
export async function passportAasEnvironment(
  em: EntityManager,
  ref: DppRef,
  publicBaseUrl: string,
  roles: Iterable<Role> = ROLES,
) {
  const passport = await findAasPassport(em, ref.environment, ref.tokenId);
  if (!passport) throw new DomainError('not_found', 'dpp_not_found', 'No such passport.');
  const id = shellId(publicBaseUrl, passport.environment, passport.tokenId);
  // The AAS API's submodels; its DppMeta header lists the pinned specifications.
  const base = passportSubmodels(passport, publicBaseUrl);
  // Merged over the item's model and batch, as the AAS API serves it.
  const battery = (await aasPassportContents(em, [ref.passportId], 'battery')).get(ref.passportId);
  const facts = {
    shellId: id,
    digitalLink: digitalLink(publicBaseUrl, passport.environment, passport.gtin, passport.tokenId),
    serialNumber: passport.tokenId,
  };
  const group: BatterySubmodel[] = battery
    ? servedBatterySubmodels(facts, battery, new Set(roles)).served
    : [];
  const shell = passportShell(passport, publicBaseUrl);
  return {
    assetAdministrationShells: [
      {
        ...shell,
        submodels: [...shell.submodels, ...group.map((submodel) => submodelReference(submodel.id))],
      },
    ],
    submodels: [...base, ...group],
  };
}
