/** GS1 Web Vocabulary: the namespace of GS1 link types (a linkset's relation keys are full IRIs in it). */
export const GS1_VOCABULARY = 'https://gs1.org/voc/';

/** JSON-LD context GS1 publishes for linksets (named in the Link header of a linkset answer). */
export const GS1_LINKSET_CONTEXT = 'https://ref.gs1.org/standards/resolver/linkset-context';

/**
 * The link types our resolver answers for a passport, each with the representation it leads to:
 * - `pip` (product information page) and `verificationService`: the consumer verification page;
 * - `dpp` (GS1's link type for a Digital Product Passport): the signed verifiable credential (format=vc);
 * - `sustainabilityInfo`: the asset administration shell (its SustainabilityData submodel, format=aas);
 * - `recyclingInfo`: the verification page's recycling section;
 * - `certificationInfo`: the brand's declaration of conformity, when the passport has one.
 * `defaultLink` is the page a plain request is sent to.
 */
export const LINK_TYPES = [
  'pip',
  'verificationService',
  'dpp',
  'sustainabilityInfo',
  'recyclingInfo',
  'certificationInfo',
  'defaultLink',
] as const;

export type LinkType = (typeof LINK_TYPES)[number];

/**
 * A `linkType` query value in any of the forms resolvers accept (`gs1:pip`, `pip`, `https://gs1.org/voc/pip`,
 * `https://ref.gs1.org/voc/pip`, `http://…`), as one of ours; `all` and `linkset` ask for the linkset;
 * anything else is unknown.
 */
export function parseLinkType(value: string): LinkType | 'linkset' | undefined {
  const trimmed = value.trim();
  if (trimmed === 'all' || trimmed === 'linkset') return 'linkset';
  const name = trimmed.replace(/^(gs1:|https?:\/\/(ref\.)?gs1\.org\/voc\/)/, '');
  return (LINK_TYPES as readonly string[]).includes(name) ? (name as LinkType) : undefined;
}
