import type { EntityManager } from '@mikro-orm/postgresql';
import { newServiceInternalId } from '../../passport/record/service-id.ts';
import { AssetTwin } from '../../platform/db/entities/index.ts';
import { ownedBy, type TenantScope } from '../../platform/db/tenant-scope.ts';

export interface ErpMetadata {
  material_number: string;
  order_id: string;
  conformity_url?: string | undefined;
}

export type ProvisionInput =
  | { erp: ErpMetadata }
  | { gtin: string; name: string; batch?: string | undefined; conformityUrl?: string | undefined };

/** Reserves one INACTIVE twin and returns its service internal id. */
export async function provisionTwin(
  em: EntityManager,
  scope: TenantScope,
  input: ProvisionInput,
): Promise<string> {
  const twin = em.create(AssetTwin, {
    ...ownedBy(scope),
    serviceInternalId: newServiceInternalId(),
    status: 'INACTIVE',
    materialNumber: 'erp' in input ? input.erp.material_number : null,
    orderId: 'erp' in input ? input.erp.order_id : null,
    gtin: 'gtin' in input ? input.gtin : null,
    name: 'name' in input ? input.name : null,
    batch: ('batch' in input ? input.batch : undefined) ?? null,
    conformityUrl: ('erp' in input ? input.erp.conformity_url : input.conformityUrl) ?? null,
    chipUid: null,
    boundAt: null,
  });
  await em.flush();
  return twin.serviceInternalId;
}

/**
 * Reserves one twin per item, all or nothing, in a single statement (one round trip however many items):
 * the rows travel as one JSON parameter and are expanded server-side. Ids are returned in item order.
 */
export async function provisionTwinsBulk(
  em: EntityManager,
  scope: TenantScope,
  items: readonly ErpMetadata[],
): Promise<string[]> {
  const ids = items.map(() => newServiceInternalId());
  await insertTwins(
    em,
    scope,
    items.map((item, i) => ({ id: ids[i]!, item })),
  );
  return ids;
}

/**
 * Inserts INACTIVE twins under the given service internal ids in one statement; an id that exists already is
 * skipped (a retried write of the same ids writes nothing twice). Returns how many were inserted.
 */
export async function insertTwins(
  em: EntityManager,
  scope: TenantScope,
  twins: readonly { id: string; item: ErpMetadata }[],
): Promise<number> {
  const rows = twins.map(({ id, item }) => [
    id,
    item.material_number,
    item.order_id,
    item.conformity_url ?? null,
  ]);
  const inserted = await em.execute<{ n: number }[]>(
    `with added as (
       insert into asset_twins (company_id, environment, service_internal_id, status, material_number, order_id,
         conformity_url)
       select ?, ?, r->>0, 'INACTIVE', r->>1, r->>2, r->>3 from jsonb_array_elements(?::jsonb) as r
       on conflict (service_internal_id) do nothing
       returning 1
     )
     select count(*)::int as n from added`,
    [scope.companyId, scope.environment, JSON.stringify(rows)],
  );
  return inserted[0]?.n ?? 0;
}
