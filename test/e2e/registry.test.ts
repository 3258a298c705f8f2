import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { searchAttributes } from '../../src/processes/search-attributes.ts';
import { verifyServiceSignature } from '../../src/webhooks/signing.ts';
import type { TestTenant } from '../support/api.ts';
import { BATTERY_V1 as V1 } from '../support/fixtures/battery.ts';
import { enrollAndMint } from '../support/fixtures/mint.ts';
import { GTIN, OTHER_GTIN } from '../support/fixtures/products.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';
import { type Receiver, startReceiver } from '../webhooks/support.ts';

// biome-ignore lint/suspicious/noExplicitAny: JSON as served
type Json = any;

const EORI = 'DE1234567890123';

/** Reads until `read` answers something defined (every 100 ms), failing after `ms`. */
async function waitFor<T>(read: () => Promise<T | undefined>, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    assert.ok(Date.now() < deadline, 'still waiting');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
const LOT = 'LOT-2026-11';

/**
 * Registration in the EU DPP registry (issue 35, docs/registry.md) through the API, on the stack with the registry
 * emulator: each passport's versions reach the registry once each, in order, with their hashes; the registry's
 * identifier shows in the header; a refusal is visible (webhook, attention, the registration read) until the
 * brand retries, and the retry registers once.
 */
describe('EU DPP registry registrations', () => {
  let stack: TestStack;
  let brand: TestTenant;
  let receiver: Receiver;
  let secret: string;
  const call = (method: string, path: string, body?: unknown, tenant = brand) =>
    stack.api.call(method, path, { key: tenant.testKey, body });
  const dppPath = (dppId: string) => `/v1/dpps/${encodeURIComponent(dppId)}`;
  const registration = async (dppId: string) =>
    (await call('GET', `${dppPath(dppId)}/registration`)).body as Json;
  const registered = (dppId: string) =>
    waitFor(async () => {
      const read = await registration(dppId);
      return read.state === 'registered' && read.pendingVersions === 0 ? read : undefined;
    }, 30_000);
  const emulated = (upi: string) =>
    stack.registry!.state().registrations.filter((entry) => entry.uniqueProductIdentifier === upi);
  const setEori = (tenant: TestTenant) =>
    call(
      'PATCH',
      '/v1/company/settings',
      { economicOperatorId: EORI, facilityId: 'urn:facility:hamburg-1' },
      tenant,
    );
  const createLevel = async (body: Json, tenant = brand): Promise<string> => {
    const created = await call('POST', '/v1/dpps', body, tenant);
    assert.equal(created.status, 201, created.text);
    return created.body.digitalProductPassportId;
  };
  const versionHashes = async (dppId: string) =>
    ((await call('GET', `${dppPath(dppId)}/versions`)).body.items as Json[]).map((v) => v.sha256 as string);

  beforeAll(async () => {
    stack = await startTestStack({ registry: true });
    brand = await stack.api.createTenant('Voltaic Cells');
    const settings = await setEori(brand);
    assert.equal(settings.status, 200, settings.text);
    receiver = await startReceiver();
    const endpoint = await call('POST', '/v1/webhooks/endpoints', {
      url: receiver.url,
      eventTypes: ['registry.registration_refused'],
    });
    assert.equal(endpoint.status, 201, endpoint.text);
    secret = endpoint.body.secret;
  }, 600_000);
  afterAll(async () => {
    await stack?.close();
    await receiver?.close();
  });

  test('model, batch and item: each registered once with its version hashes; the item links its batch and model', async () => {
    const modelId = await createLevel({
      granularity: 'Model',
      gtin: GTIN,
      [V1]: { generalProductInformation: { manufacturerName: 'Voltaic Model Works' } },
    });
    const batchId = await createLevel({
      granularity: 'Batch',
      gtin: GTIN,
      lot: LOT,
      [V1]: { generalProductInformation: { warrantyPeriod: 'P10Y' } },
    });
    const model = await registered(modelId);
    const batch = await registered(batchId);
    assert.match(model.registryId, /^EU-DPP-[0-9A-F]{16}$/);
    assert.notEqual(batch.registryId, model.registryId, 'one registration identity per product');

    const tokenId = await enrollAndMint((m, p, b) => call(m, p, b), '04B1B2B3B4B5B6', { batch_number: LOT });
    const erp = await call('GET', `/test/01/${GTIN}/21/${tokenId}?format=erp`);
    const itemId = erp.body.dppHeader.digitalProductPassportId as string;
    const item = await registered(itemId);
    const upi = `${stack.api.config.publicBaseUrl}/test/01/${GTIN}/21/${tokenId}`;
    assert.equal(item.uniqueProductIdentifier, upi);

    const [entry] = emulated(upi);
    assert.ok(entry, 'the registry has the item');
    assert.equal(emulated(upi).length, 1);
    const payload = entry.payload as Json;
    assert.equal(payload.granularity, 'item');
    assert.equal(payload.uniqueOperatorIdentifier, EORI);
    assert.equal(payload.uniqueFacilityIdentifier, 'urn:facility:hamburg-1');
    assert.equal(payload.backupCopyUrl, `https://backup.example.test/test/01/${GTIN}/21/${tokenId}`);
    assert.equal(payload.serviceProviderId, 'dpp-service-test');
    assert.equal(payload.digitalProductPassportId, itemId);
    assert.deepEqual(payload.linkedPassports, [
      {
        granularity: 'batch',
        uniqueProductIdentifier: `${stack.api.config.publicBaseUrl}/test/01/${GTIN}/10/${LOT}`,
        registrationId: batch.registryId,
      },
      {
        granularity: 'model',
        uniqueProductIdentifier: `${stack.api.config.publicBaseUrl}/test/01/${GTIN}`,
        registrationId: model.registryId,
      },
    ]);
    assert.deepEqual(
      entry.versions.map((version) => version.sha256),
      await versionHashes(itemId),
      'every version’s hash, in order, once each',
    );

    const batchEntry = emulated(`${stack.api.config.publicBaseUrl}/test/01/${GTIN}/10/${LOT}`)[0]!;
    assert.deepEqual(
      (batchEntry.payload as Json).linkedPassports.map((link: Json) => link.granularity),
      ['model'],
    );
    assert.equal((batchEntry.payload as Json).commodityCode, '8507', 'a battery: CN heading 8507');

    const header = (await call('GET', `/test/01/${GTIN}/21/${tokenId}?format=erp`)).body.dppHeader;
    assert.equal(
      header.registryRegistrationId,
      item.registryId,
      'the EN 18223 header names the registration',
    );
  });

  test('a status change is reported to the registry as an update of the same registration', async () => {
    const modelId = await createLevel({
      granularity: 'Model',
      gtin: OTHER_GTIN,
      [V1]: { generalProductInformation: { manufacturerName: 'Voltaic Model Works' } },
    });
    const before = await registered(modelId);
    const suspended = await call('POST', `${dppPath(modelId)}/status`, {
      action: 'suspend',
      reason: 'recall',
    });
    assert.equal(suspended.status, 200, suspended.text);
    const after = await registered(modelId);
    assert.equal(after.registryId, before.registryId);
    const [entry] = emulated(before.uniqueProductIdentifier);
    assert.deepEqual(
      entry!.versions.map((version) => version.dppStatus),
      ['active', 'suspended'],
    );
    assert.deepEqual(
      entry!.versions.map((version) => version.sha256),
      await versionHashes(modelId),
    );
  });

  test('a refusal: webhook with the reason, attention, shown in the read; after the retry, registered once', async () => {
    stack.registry!.switches.refuse = 'Economic operator not verified (Art. 4).';
    const modelId = await createLevel({
      granularity: 'Model',
      gtin: '09506000134376',
      [V1]: { generalProductInformation: { manufacturerName: 'Voltaic Model Works' } },
    });
    await receiver.waitFor(1, 30_000);
    const delivered = receiver.requests[0]!;
    assert.ok(verifyServiceSignature(String(delivered.headers['service-signature']), delivered.body, secret));
    const event = JSON.parse(delivered.body);
    assert.equal(event.eventType, 'registry.registration_refused');
    assert.equal(event.data.digitalProductPassportId, modelId);
    assert.equal(event.data.reason, 'Economic operator not verified (Art. 4).');

    const refused = await registration(modelId);
    assert.equal(refused.state, 'refused');
    assert.equal(refused.registryId, null);
    assert.equal(refused.refusal.reason, 'Economic operator not verified (Art. 4).');
    const uid = modelId.replace('urn:uuid:', '');
    const handle = stack.temporal.client.workflow.getHandle(`registry:test:${uid}`);
    await waitFor(async () =>
      (await handle.describe()).typedSearchAttributes.get(searchAttributes.attention) ===
      'registration_refused'
        ? true
        : undefined,
    );

    stack.registry!.switches.refuse = null;
    const retry = await call('POST', `${dppPath(modelId)}/registration/retry`);
    assert.equal(retry.status, 202, retry.text);
    const done = await registered(modelId);
    assert.match(done.registryId, /^EU-DPP-/);
    assert.equal(done.refusal, null);
    assert.equal(emulated(done.uniqueProductIdentifier).length, 1, 'registered once');
    assert.equal(emulated(done.uniqueProductIdentifier)[0]!.versions.length, 1, 'its one version, once');
    await waitFor(async () =>
      (await handle.describe()).typedSearchAttributes.get(searchAttributes.attention) === undefined
        ? true
        : undefined,
    );
  });

  test('a payload the registry finds wrong (no EORI) is refused with its fields; fixing the setting and retrying registers it', async () => {
    const newcomer = await stack.api.createTenant('No EORI Yet');
    const modelId = await createLevel(
      {
        granularity: 'Model',
        gtin: '09506000134383',
        [V1]: { generalProductInformation: { manufacturerName: 'Newcomer' } },
      },
      newcomer,
    );
    const refused = await waitFor(async () => {
      const read = (await call('GET', `${dppPath(modelId)}/registration`, undefined, newcomer)).body;
      return read.state === 'refused' ? read : undefined;
    }, 30_000);
    assert.ok(
      refused.refusal.fields.some((field: Json) => field.path === 'uniqueOperatorIdentifier'),
      JSON.stringify(refused.refusal),
    );
    assert.equal((await setEori(newcomer)).status, 200);
    const retry = await call('POST', `${dppPath(modelId)}/registration/retry`, undefined, newcomer);
    assert.equal(retry.status, 202, retry.text);
    const done = await waitFor(async () => {
      const read = (await call('GET', `${dppPath(modelId)}/registration`, undefined, newcomer)).body;
      return read.state === 'registered' ? read : undefined;
    }, 30_000);
    assert.equal((emulated(done.uniqueProductIdentifier)[0]!.payload as Json).uniqueOperatorIdentifier, EORI);
    const foreign = await call('GET', `${dppPath(modelId)}/registration`);
    assert.equal(foreign.status, 404, 'another company’s passport has no registration for you');
  });
});
