import type { BatterySubmodel, Element } from './battery-elements.ts';

/**
 * Cuts AAS submodels built from masked data (src/disclosure/disclose-content.ts maskContent) down to what the
 * caller may read: every Property or MultiLanguageProperty whose value holds the sentinel goes, and with it
 * every collection or list left without a value, and every submodel left with no value that came from the
 * product-group data (`factIdShorts`: elements built from the passport's identity, not from the data).
 */
export function discloseSubmodels(
  submodels: BatterySubmodel[],
  sentinel: string,
  factIdShorts: ReadonlySet<string>,
): BatterySubmodel[] {
  const holdsSentinel = (element: Element): boolean => {
    if (typeof element.value === 'string') return element.value.includes(sentinel);
    if (element.modelType === 'MultiLanguageProperty' && Array.isArray(element.value)) {
      return (element.value as { text: string }[]).some((entry) => entry.text.includes(sentinel));
    }
    return false;
  };
  const isContainer = (element: Element) =>
    element.modelType === 'SubmodelElementCollection' || element.modelType === 'SubmodelElementList';
  const leaves = (element: Element): Element[] =>
    isContainer(element)
      ? Array.isArray(element.value)
        ? (element.value as Element[]).flatMap(leaves)
        : []
      : [element];
  // A collection or list left without any value (all cut, or empty to begin with) says nothing: it goes too.
  const cut = (element: Element): Element | undefined => {
    if (holdsSentinel(element)) return undefined;
    if (!isContainer(element)) return element;
    const kept = Array.isArray(element.value)
      ? (element.value as Element[]).flatMap((child) => cut(child) ?? [])
      : [];
    return kept.flatMap(leaves).length > 0 ? { ...element, value: kept } : undefined;
  };
  return submodels.flatMap((model) => {
    const elements = model.submodelElements.flatMap((element) => cut(element) ?? []);
    const fromData = elements.flatMap(leaves).some((element) => !factIdShorts.has(element.idShort ?? ''));
    return fromData ? [{ ...model, submodelElements: elements }] : [];
  });
}
