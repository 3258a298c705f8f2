import {
  defineSearchAttributeKey,
  SearchAttributeType,
  type TypedSearchAttributes,
} from '@temporalio/common';

/** Typed search attributes that make a passport's workflows findable, e.g. `DppChipUid = "04DE5F1EACC040"`. */
export const searchAttributes = {
  environment: defineSearchAttributeKey('DppEnvironment', SearchAttributeType.KEYWORD),
  company: defineSearchAttributeKey('DppCompanyId', SearchAttributeType.KEYWORD),
  tokenId: defineSearchAttributeKey('DppTokenId', SearchAttributeType.KEYWORD),
  gtin: defineSearchAttributeKey('DppGtin', SearchAttributeType.KEYWORD),
  chipUid: defineSearchAttributeKey('DppChipUid', SearchAttributeType.KEYWORD),
  /** Set while a workflow needs an operator, e.g. `DppAttention = "record_failed"`; removed once resolved. */
  attention: defineSearchAttributeKey('DppAttention', SearchAttributeType.KEYWORD),
} as const;

export type SearchAttributeValues = Partial<Record<keyof typeof searchAttributes, string>>;

/** The pairs to pass as `typedSearchAttributes` when starting a workflow; unset values are left out. */
export function searchAttributePairs(
  values: SearchAttributeValues,
): ConstructorParameters<typeof TypedSearchAttributes>[0] {
  const pairs = [];
  for (const [name, value] of Object.entries(values) as [
    keyof typeof searchAttributes,
    string | undefined,
  ][]) {
    if (value !== undefined && value !== '') pairs.push({ key: searchAttributes[name], value });
  }
  return pairs;
}
