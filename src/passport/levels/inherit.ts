import type { EntityManager } from '@mikro-orm/postgresql';
import { parseSpecificationId } from '../content/content-specification.ts';
import { escapePointer, type Layer, type Merged, mergeLayers } from '../content/merge-layers.ts';
import { dppIdOf } from '../record/passport-header.ts';
import { levelContent, levelsOfItem } from './levels.ts';

type Data = Record<string, unknown>;

/** The product-group data an item inherits: each level's section, most general level first. */
export interface InheritedSection {
  dppId: string;
  specificationId: string;
  group: string;
  data: Data;
}

/** What an item inherits from its model and batch passports (found by key now, docs/granularity.md). */
export async function inheritedSections(em: EntityManager, passportId: number): Promise<InheritedSection[]> {
  const levels = await levelsOfItem(em, passportId);
  if (levels.length === 0) return [];
  const dppIds = new Map(levels.map((level) => [level.id, dppIdOf(level.serviceUid)]));
  const rows = await levelContent(
    em,
    levels.map((level) => level.id),
  );
  const order = levels.map((level) => level.id);
  return rows
    .sort((a, b) => order.indexOf(a.levelId) - order.indexOf(b.levelId))
    .map((row) => ({
      dppId: dppIds.get(row.levelId)!,
      specificationId: row.specificationId,
      group: row.group,
      data: row.data,
    }));
}

/**
 * One product group's merged data (model ← batch ← item): the version the item is pinned to wins; without own
 * data, the most specific level's. A level pinned to another version of the group is not merged (its fields
 * follow another schema). Undefined when no level and not the item has data of the group.
 */
export function mergeSection(
  group: string,
  inherited: readonly InheritedSection[],
  own: { dppId: string; specificationId: string; data: Data } | undefined,
): (Merged & { specificationId: string }) | undefined {
  const ofGroup = inherited.filter((section) => section.group === group);
  const specificationId = own?.specificationId ?? ofGroup[ofGroup.length - 1]?.specificationId;
  if (specificationId === undefined) return undefined;
  const layers: Layer[] = ofGroup
    .filter((section) => section.specificationId === specificationId)
    .map(({ dppId, data }) => ({ dppId, data }));
  if (own) layers.push({ dppId: own.dppId, data: own.data });
  return { specificationId, ...mergeLayers(layers) };
}

/**
 * An item's EN 18222 document with its model's and batch's product-group sections merged in (every section the
 * item or a level has), and the source of each merged leaf keyed by the RFC 6901 pointer into the document.
 * `inherited` empty: the document as it is, no sources.
 */
export function mergeItemDocument(
  document: Data,
  inherited: readonly InheritedSection[],
): { document: Data; sources: Record<string, string> | undefined } {
  if (inherited.length === 0) return { document, sources: undefined };
  const dppId = String(document.digitalProductPassportId);
  const listed = Array.isArray(document.contentSpecificationIds)
    ? (document.contentSpecificationIds as string[])
    : [];
  const ownByGroup = new Map<string, string>();
  for (const id of listed) {
    const parsed = parseSpecificationId(id);
    if (parsed && document[id] !== undefined) ownByGroup.set(parsed.group, id);
  }
  const groups = new Set([...ownByGroup.keys(), ...inherited.map((section) => section.group)]);
  const merged: Data = { ...document };
  const ids = [...listed];
  const sources: Record<string, string> = {};
  for (const group of groups) {
    const ownId = ownByGroup.get(group);
    const own =
      ownId === undefined ? undefined : { dppId, specificationId: ownId, data: document[ownId] as Data };
    const section = mergeSection(group, inherited, own);
    if (!section) continue;
    merged[section.specificationId] = section.data;
    if (!ids.includes(section.specificationId)) ids.push(section.specificationId);
    const prefix = `/${escapePointer(section.specificationId)}`;
    for (const [pointer, from] of Object.entries(section.sources)) sources[`${prefix}${pointer}`] = from;
  }
  merged.contentSpecificationIds = ids;
  return { document: merged, sources };
}
