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
  const rows = items.map((item, i) => [
    ids[i],
    item.material_number,
    item.order_id,
    item.conformity_url ?? null,
  ]);
  await em.execute(
    `insert into asset_twins (company_id, environment, service_internal_id, status, material_number, order_id,
       conformity_url)
     select ?, ?, r->>0, 'INACTIVE', r->>1, r->>2, r->>3 from jsonb_array_elements(?::jsonb) as r`,
    [scope.companyId, scope.environment, JSON.stringify(rows)],
    'run',
  );
  return ids;
}
