import type { EntityManager } from '@mikro-orm/postgresql';
import type { BatteryData } from '../../content-specs/battery/battery-data.ts';
import { contentSpecifications } from '../../content-specs/content-specification.ts';
import { ROLES, type Role } from '../../content-specs/disclosure.ts';
import { readPassportContent } from '../../content-specs/passport-content.ts';
import { maskContent } from '../../disclosure/disclose-content.ts';
import type { DppRef } from '../../dpp-api/find-dpp.ts';
import { DomainError } from '../../errors.ts';
import { digitalLink } from '../../gs1/digital-link.ts';
import { findAasPassport } from '../aas-passports.ts';
import { passportShell, passportSubmodels, submodelReference } from '../aas-v3.ts';
import { shellId } from '../shell.ts';
import { discloseSubmodels } from './battery-disclosure.ts';
import type { BatterySubmodel } from './battery-elements.ts';
import { batterySubmodels } from './battery-submodels.ts';

/** Stands for a value the caller may not read while the submodels are built (never serialised). */
const MASK = '\u0000not-disclosed\u0000';
/** Battery submodel elements built from the passport's identity, not from the data. */
const FACT_ELEMENTS = new Set(['URIOfTheProduct', 'SerialNumber']);

/**
 * A passport's whole AAS v3 environment: the shell and submodels the AAS API serves (its DppMeta listing the
 * pinned content specifications) plus the product group's submodels (for a battery: IDTA-02035 parts 1, 4, 5,
 * 7), cut to what `roles` may read (docs/disclosure.md): an element holding a field the roles may not read is
 * not serialised, a submodel left without data is left out (and out of the shell's list). Every role (the
 * owner): everything, which is what aas-submodel-validate and aas-test-engines check. What
 * `GET /v1/dpps/{dppId}/content/{specId}?format=aas` answers.
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
  const battery = await readPassportContent(em, ref.passportId, 'battery');
  const facts = {
    shellId: id,
    digitalLink: digitalLink(publicBaseUrl, passport.environment, passport.gtin, passport.tokenId),
    serialNumber: passport.tokenId,
  };
  const disclosedBatterySubmodels = (
    content: { specificationId: string; data: Record<string, unknown> },
    held: Iterable<Role>,
  ): BatterySubmodel[] => {
    const spec = contentSpecifications.get(content.specificationId);
    const set = new Set(held);
    if (spec && ROLES.every((role) => set.has(role))) {
      return batterySubmodels(facts, content.data as unknown as BatteryData);
    }
    // Built from the data with every unreadable value masked, then every element holding the mask removed.
    const masked = maskContent(content.data, spec?.policy ?? {}, set, MASK);
    return discloseSubmodels(batterySubmodels(facts, masked as unknown as BatteryData), MASK, FACT_ELEMENTS);
  };
  const group: BatterySubmodel[] = battery ? disclosedBatterySubmodels(battery, roles) : [];
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
