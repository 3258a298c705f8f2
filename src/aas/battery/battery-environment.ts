import type { EntityManager } from '@mikro-orm/postgresql';
import type { BatteryData } from '../../content-specs/battery/battery-data.ts';
import { readPassportContent } from '../../content-specs/passport-content.ts';
import type { DppRef } from '../../dpp-api/find-dpp.ts';
import { DomainError } from '../../errors.ts';
import { digitalLink } from '../../gs1/digital-link.ts';
import { findAasPassport } from '../aas-passports.ts';
import { passportShell, passportSubmodels, submodelReference } from '../aas-v3.ts';
import { shellId } from '../shell.ts';
import type { BatterySubmodel } from './battery-elements.ts';
import { batterySubmodels } from './battery-submodels.ts';

/**
 * A passport's whole AAS v3 environment for its owner: the shell and submodels the AAS API serves (its DppMeta
 * listing the pinned content specifications) plus the product group's submodels, restricted fields included
 * (for a battery: IDTA-02035 parts 1, 4, 5, 7). What `GET /v1/dpps/{dppId}/content/{specId}?format=aas` answers
 * and what aas-submodel-validate and aas-test-engines check.
 */
export async function passportAasEnvironment(em: EntityManager, ref: DppRef, publicBaseUrl: string) {
  const passport = await findAasPassport(em, ref.environment, ref.tokenId);
  if (!passport) throw new DomainError('not_found', 'dpp_not_found', 'No such passport.');
  const id = shellId(publicBaseUrl, passport.environment, passport.tokenId);
  // The AAS API's submodels; its DppMeta header lists the pinned specifications.
  const base = passportSubmodels(passport, publicBaseUrl);
  const battery = await readPassportContent(em, ref.passportId, 'battery');
  const group: BatterySubmodel[] = battery
    ? batterySubmodels(
        {
          shellId: id,
          digitalLink: digitalLink(publicBaseUrl, passport.environment, passport.gtin, passport.tokenId),
          serialNumber: passport.tokenId,
        },
        battery.data as unknown as BatteryData,
      )
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
