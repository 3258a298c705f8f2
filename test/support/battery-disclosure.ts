import assert from 'node:assert/strict';
import { BATTERY_1_0_0 } from '../../src/passport/content/battery/battery-1.0.0.ts';
import { fieldPattern, type Role } from '../../src/passport/content/disclosure.ts';
import { registerAuthority } from '../../src/passport/disclosure/grants.ts';
import type { TestApi, TestTenant } from './api.ts';
import { BATTERY_DATA, BATTERY_MAKER, contentPath } from './fixtures/battery.ts';
import { enrollAndMint } from './fixtures/mint.ts';
import { GTIN } from './fixtures/products.ts';
import { startTestStack, type TestStack } from './stack.ts';

/** Every leaf's JSON pointer in a value (an array of scalars is one leaf, as in the policy). */
export function leafPointers(value: unknown, pointer = ''): string[] {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    return Object.entries(value).flatMap(([name, child]) => leafPointers(child, `${pointer}/${name}`));
  }
  if (Array.isArray(value) && value.some((item) => typeof item === 'object' && item !== null)) {
    return value.flatMap((item, index) => leafPointers(item, `${pointer}/${index}`));
  }
  return [pointer];
}

/** The value at a leaf's pointer in the battery data. */
export function leafValue(pointer: string): unknown {
  return pointer
    .split('/')
    .slice(1)
    .reduce<unknown>((node, segment) => (node as Record<string, unknown>)[segment], BATTERY_DATA);
}

/** Every leaf of the battery data model. */
export const BATTERY_LEAVES = leafPointers(BATTERY_DATA);

/** The leaves a caller holding `roles` reads: those whose policy names one of them. */
export const readableBy = (roles: readonly Role[]) =>
  BATTERY_LEAVES.filter((pointer) =>
    BATTERY_1_0_0.policy[fieldPattern(pointer)]!.roles.some((role) => roles.includes(role)),
  ).sort();

/**
 * The values of the leaves `roles` may not read that no readable leaf shares (so finding one in an answer can
 * only mean the restricted field leaked), as the strings a serialisation would hold.
 */
export function secretsFor(roles: readonly Role[]): string[] {
  const readable = new Set(readableBy(roles));
  const asText = (pointer: string) => [leafValue(pointer)].flat().map((value) => String(value));
  const shown = [...readable].flatMap(asText);
  return BATTERY_LEAVES.filter((pointer) => !readable.has(pointer))
    .flatMap(asText)
    .filter((value) => value.length >= 4 && !shown.some((s) => s.includes(value)));
}

/**
 * An answer's text without the random identifiers it carries (transaction and data hashes, CIDs, signatures,
 * tokens) and the fractions of its generated timestamps: a restricted value such as "9200" or "15.2" can occur
 * inside one of those by chance (`…:15.234Z`), which is no leak.
 */
export function withoutIdentifiers(text: string): string {
  return text
    .replace(/0x[0-9a-fA-F]+/g, '')
    .replace(/[A-Za-z0-9_-]{32,}/g, '')
    .replace(/(T\d{2}:\d{2}:\d{2})\.\d+/g, '$1');
}

/** The brand and a company for each audience of its battery passport. */
export interface BatteryAudiences {
  brand: TestTenant;
  repairer: TestTenant;
  recycler: TestTenant;
  authority: TestTenant;
  notifiedBody: TestTenant;
  stranger: TestTenant;
}

/** The brand (Voltaic Cells) and the companies that will read its battery passports. */
export async function createBatteryAudiences(api: TestApi): Promise<BatteryAudiences> {
  return {
    brand: await api.createTenant('Voltaic Cells'),
    repairer: await api.createTenant('Fix It Garage'),
    recycler: await api.createTenant('Black Mass Recycling'),
    authority: await api.createTenant('Market Surveillance Authority'),
    notifiedBody: await api.createTenant('Notified Body 0123'),
    stranger: await api.createTenant('Someone Else'),
  };
}

/**
 * The brand writes the whole battery data to passport `dppId`, grants the repairer, the recycler and the
 * notified body their roles, and the operator registers the authority; answers the grants' ids by role.
 */
export async function discloseBattery(
  api: TestApi,
  audiences: BatteryAudiences,
  dppId: string,
): Promise<Record<string, string>> {
  const asBrand = (method: string, path: string, body?: unknown) =>
    api.call(method, path, { key: audiences.brand.testKey, body });
  const written = await asBrand('PUT', contentPath(dppId), BATTERY_DATA);
  assert.equal(written.status, 201, written.text);
  const grants: Record<string, string> = {};
  for (const role of ['repairer', 'recycler', 'notifiedBody'] as const) {
    const granted = await asBrand('POST', '/v1/disclosure-grants', {
      granteeCompanyId: audiences[role].companyId,
      role,
    });
    assert.equal(granted.status, 201, granted.text);
    grants[role] = granted.body.grant.id;
  }
  // The operator's register (npm run cli -- authority:grant <companyId>).
  assert.equal(await registerAuthority(api.db.orm.em.fork(), audiences.authority.companyId, 'MSA'), true);
  return grants;
}

/** A stack with the brand's disclosed battery passport, the audiences' companies and the grants' ids. */
export interface DisclosedBattery extends BatteryAudiences {
  stack: TestStack;
  tokenId: string;
  dppId: string;
  grants: Record<string, string>;
}

/**
 * A stack where the brand minted chip `chipUid`'s battery passport and disclosed it (discloseBattery) to its
 * audiences' companies.
 */
export async function startDisclosedBattery(chipUid: string): Promise<DisclosedBattery> {
  const stack: TestStack = await startTestStack();
  const audiences = await createBatteryAudiences(stack.api);
  const asBrand = (method: string, path: string, body?: unknown) =>
    stack.api.call(method, path, { key: audiences.brand.testKey, body });
  const tokenId = await enrollAndMint(asBrand, chipUid, BATTERY_MAKER);
  const view = await stack.api.call('GET', `/test/01/${GTIN}/21/${tokenId}?format=public`, { env: null });
  const dppId: string = view.body.dppHeader.digitalProductPassportId;
  const grants = await discloseBattery(stack.api, audiences, dppId);
  return { stack, ...audiences, tokenId, dppId, grants };
}
