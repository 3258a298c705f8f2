import type { EntityManager } from '@mikro-orm/postgresql';
import { type PassportContent, readPassportContent } from '../content/passport-content.ts';
import { dppIdOf } from '../record/passport-header.ts';
import { inheritedSections, mergeSection } from './inherit.ts';
import type { LevelPassport } from './levels.ts';

type Data = Record<string, unknown>;

/** A product group's data as a content read serves it (before disclosure). */
export interface ContentView {
  specificationId: string;
  data: Data;
  createdAt: Date;
  updatedAt: Date;
  /** The item's own stored data (what a PUT's If-Match names); undefined for a level or an item without. */
  own: PassportContent | undefined;
  /** Where each leaf comes from (RFC 6901 pointer into `data` → dppId); undefined when nothing is inherited. */
  sources: Record<string, string> | undefined;
}

/** An item's data of a product group merged over its model's and batch's (docs/granularity.md). */
export async function itemContentView(
  em: EntityManager,
  item: { passportId: number; serviceUid: string },
  group: string,
): Promise<ContentView | undefined> {
  const own = await readPassportContent(em, item.passportId, group);
  const inherited = (await inheritedSections(em, item.passportId)).filter(
    (section) => section.group === group,
  );
  if (inherited.length === 0) return own ? { ...own, own, sources: undefined } : undefined;
  const merged = mergeSection(
    group,
    inherited,
    own
      ? { dppId: dppIdOf(item.serviceUid), specificationId: own.specificationId, data: own.data }
      : undefined,
  );
  if (!merged) return undefined;
  const [times] = await em.execute<{ created_at: Date | string; updated_at: Date | string }[]>(
    `select min(created_at) as created_at, max(updated_at) as updated_at from dpp_level_content
     where level_id in (select id from dpp_levels where service_uid in (${inherited.map(() => '?').join(', ')}))
       and spec_group = ?`,
    [...inherited.map((section) => section.dppId.slice('urn:uuid:'.length)), group],
  );
  const updatedAt = new Date(
    Math.max(own?.updatedAt.getTime() ?? 0, times ? new Date(times.updated_at).getTime() : 0),
  );
  return {
    specificationId: merged.specificationId,
    data: merged.data,
    createdAt: own?.createdAt ?? (times ? new Date(times.created_at) : updatedAt),
    updatedAt,
    own,
    sources: merged.sources,
  };
}

/** A model's or batch's data of a product group. */
export async function levelContentView(
  em: EntityManager,
  level: LevelPassport,
  group: string,
): Promise<ContentView | undefined> {
  const [row] = await em.execute<
    { specification_id: string; data: Data; created_at: Date | string; updated_at: Date | string }[]
  >(
    'select specification_id, data, created_at, updated_at from dpp_level_content where level_id = ? and spec_group = ?',
    [level.id, group],
  );
  if (!row) return undefined;
  return {
    specificationId: row.specification_id,
    data: row.data,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
    own: undefined,
    sources: undefined,
  };
}
