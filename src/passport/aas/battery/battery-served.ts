import type { BatterySubmodel, Element } from '../../../standards/aas/battery-elements.ts';
import type { BatteryData } from '../../content/battery/battery-data.ts';
import { contentSpecifications } from '../../content/content-specification.ts';
import { type DisclosurePolicy, ROLES, type Role } from '../../content/disclosure.ts';
import { maskContent } from '../../disclosure/disclose-content.ts';
import { type BatteryPassportFacts, batterySubmodels } from './battery-submodels.ts';

/**
 * Which of a battery passport's IDTA-02035 submodels the public AAS API serves to a caller, and in what cut
 * (docs/aas-api.md "Battery passports"). A submodel is served only whole as its template wants it: when the
 * caller's roles read every field of the data model the submodel is built from, except the few fields behind
 * elements the template makes optional (`optional`), which are cut out for callers who may not read them.
 * A submodel holding a field the caller may not read behind a mandatory element is not served at all (not
 * listed, not in the shell's references): a cut of it would carry the template's semanticId without the
 * template's mandatory elements. The same policy as every other representation (the specification's).
 */

/** The order the shell lists them in (after the four submodels of every passport). */
export const BATTERY_SUBMODEL_ID_SHORTS = [
  'BatteryNameplate',
  'BatteryTechnicalData',
  'BatteryCarbonFootprint',
  'BatteryProductCondition',
  'BatteryCircularity',
] as const;
export type BatterySubmodelIdShort = (typeof BATTERY_SUBMODEL_ID_SHORTS)[number];

interface Sources {
  /** Field patterns (JSON pointers of the policy) the submodel is built from: these and everything below. */
  from: string[];
  /** Fields below `from` that go elsewhere. */
  except?: string[];
  /** Fields behind elements the template makes optional: cut for a caller who may not read them. */
  optional?: string[];
  /** idShorts of those optional elements (a masked element of another idShort withholds the submodel). */
  optionalElements?: string[];
}

const CONDITION = '/performanceAndDurability/batteryCondition';

/** Where each submodel's elements come from (src/passport/aas/battery/battery-submodels.ts). */
const SOURCES: Record<BatterySubmodelIdShort, Sources> = {
  BatteryNameplate: { from: ['/generalProductInformation', '/conformityAndLabels'] },
  BatteryTechnicalData: {
    from: ['/generalProductInformation', '/performanceAndDurability'],
    except: [CONDITION],
    // IDTA-02035-4 CapacityEnergyVoltage.CapacityFade [0..1]: the individual battery's fade (tier 4).
    optional: [`${CONDITION}/capacityFadePercent`],
    optionalElements: ['CapacityFade'],
  },
  BatteryCarbonFootprint: { from: ['/carbonFootprint'] },
  BatteryProductCondition: { from: [CONDITION] },
  BatteryCircularity: { from: ['/circularity'] },
};

const under = (pattern: string, prefix: string) => pattern === prefix || pattern.startsWith(`${prefix}/`);

/** Whether `roles` read every field the submodel needs whole (optional ones aside). */
export function servesBatterySubmodel(
  idShort: BatterySubmodelIdShort,
  policy: DisclosurePolicy,
  roles: ReadonlySet<Role>,
): boolean {
  const sources = SOURCES[idShort];
  const needed = Object.entries(policy).filter(
    ([pattern]) =>
      sources.from.some((prefix) => under(pattern, prefix)) &&
      !(sources.except ?? []).some((prefix) => under(pattern, prefix)) &&
      !(sources.optional ?? []).includes(pattern),
  );
  return needed.length > 0 && needed.every(([, entry]) => entry.roles.some((role) => roles.has(role)));
}

/** Stands for a value the caller may not read while the submodels are built (never serialised). */
const MASK = '\u0000not-disclosed\u0000';

function masked(element: Element): boolean {
  if (typeof element.value === 'string') return element.value.includes(MASK);
  if (!Array.isArray(element.value)) return false;
  return (element.value as unknown[]).some((child) =>
    typeof child === 'object' && child !== null && 'text' in child
      ? String(child.text).includes(MASK)
      : masked(child as Element),
  );
}

/** idShorts (list items: '') of the elements holding the mask themselves (not through a child). */
function maskedIdShorts(elements: Element[]): string[] {
  return elements.flatMap((element) => {
    const children = Array.isArray(element.value) ? (element.value as Element[]) : [];
    const container =
      element.modelType === 'SubmodelElementCollection' || element.modelType === 'SubmodelElementList';
    if (container) return maskedIdShorts(children);
    return masked(element) ? [element.idShort ?? ''] : [];
  });
}

/**
 * The elements without those holding the mask; a collection or list the cut left empty goes too (one that
 * was empty in the data stays: the template may want it, as InformationOnAccidents with no accident).
 */
function cutMasked(elements: Element[]): Element[] {
  return elements.flatMap((element) => {
    const container =
      element.modelType === 'SubmodelElementCollection' || element.modelType === 'SubmodelElementList';
    if (!container) return masked(element) ? [] : [element];
    if (!Array.isArray(element.value) || element.value.length === 0) return [element];
    const kept = cutMasked(element.value as Element[]);
    return kept.length === 0 ? [] : [{ ...element, value: kept }];
  });
}

/**
 * The battery submodels a caller holding `roles` is served, cut to what it reads, and the idShorts of those
 * that exist (for the brand) but are withheld from it. An unknown specification serves nothing (fail closed).
 */
export function servedBatterySubmodels(
  facts: BatteryPassportFacts,
  content: { specificationId: string; data: Record<string, unknown> },
  roles: ReadonlySet<Role>,
): { served: BatterySubmodel[]; withheld: string[] } {
  const spec = contentSpecifications.get(content.specificationId);
  const all = spec ? batterySubmodels(facts, content.data as unknown as BatteryData) : [];
  if (!spec || ROLES.every((role) => roles.has(role))) return { served: all, withheld: [] };
  const cut = batterySubmodels(
    facts,
    maskContent(content.data, spec.policy, roles, MASK) as unknown as BatteryData,
  );
  const served: BatterySubmodel[] = [];
  const withheld: string[] = [];
  for (const submodel of cut) {
    const idShort = submodel.idShort as BatterySubmodelIdShort;
    const optional = new Set(SOURCES[idShort]?.optionalElements ?? []);
    const whole =
      SOURCES[idShort] !== undefined &&
      servesBatterySubmodel(idShort, spec.policy, roles) &&
      // Belt and braces: a masked element the table above does not call optional withholds it too.
      maskedIdShorts(submodel.submodelElements).every((name) => optional.has(name));
    if (whole) served.push({ ...submodel, submodelElements: cutMasked(submodel.submodelElements) });
    else withheld.push(idShort);
  }
  return { served, withheld };
}
