import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { exportCompany } from '../../src/lifecycle/exit/export-company.ts';
import { importCompany } from '../../src/lifecycle/exit/import-company.ts';
import { SecretBox } from '../../src/platform/secret-box.ts';
import { activeSigningSecrets } from '../../src/webhooks/endpoint-secrets.ts';
import { startTestApi, type TestApi, type TestTenant } from '../support/api.ts';
import { BATTERY_V1 as V1 } from '../support/fixtures/battery.ts';
import { enrollAndMint } from '../support/fixtures/mint.ts';
import { FULL_PRODUCT, GTIN } from '../support/fixtures/products.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';

// biome-ignore lint/suspicious/noExplicitAny: JSON as served
type Json = any;

const OLD_HOST = 'https://dpp.old-provider.example';
const NEW_HOST = 'https://dpp.new-provider.example';
// The issuer key the brand's credentials were signed with (handed over with the host: docs/exit.md).
const ISSUER_KEY_TEST = 'a1'.repeat(32);
const LOT = 'LOT-7';
const FORMATS = ['public', 'linkset', 'vc', 'untp', 'vc-jwt', 'aas'];
const quiet = () => {};

interface Answer {
  status: number;
  type: string | null;
  location: string | null;
  body: string;
}

/** Everything a client sees of one address (no redirect followed). */
async function answer(api: TestApi, path: string, accept = 'application/json'): Promise<Answer> {
  const response = await api.call('GET', path, { env: null, headers: { accept } });
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    location: response.headers.get('location'),
    // A problem's requestId names the request, not the passport.
    body: response.text.replace(/"requestId":"[^"]*"/, '"requestId":"…"'),
  };
}

/**
 * Export → import (issue 35 item 5, docs/exit.md): a brand's item, model and batch passports with their events,
 * versions, credentials, grants and webhook endpoints leave one instance and are restored on fresh ones; every
 * Digital Link then answers the same way. Instance A takes over the old host (and the issuer key): every answer
 * byte for byte, signed credentials as stored. Instance B runs under its own host: the same answers but for the
 * host, and requests addressed to the old host are redirected to it. A second import changes nothing.
 */
describe('leaving: export a company, import it elsewhere, every Digital Link answers the same', () => {
  let old: TestStack;
  let brand: TestTenant;
  let repairer: TestTenant;
  let sameHost: TestApi;
  let newHost: TestApi;
  let dir: string;
  const links: string[] = [];
  const pages: string[] = [];
  const before = new Map<string, Answer>();
  let webhookSecret: string;

  const addressesOf = (link: string) => [
    ...FORMATS.map((format) => `${link}?format=${format}`),
    link, // a browser: redirected to the page
  ];

  beforeAll(async () => {
    old = await startTestStack({ apiEnv: { PUBLIC_BASE_URL: OLD_HOST, ISSUER_KEY_TEST } });
    brand = await old.api.createTenant('Voltaic Cells');
    repairer = await old.api.createTenant('Fix-It Repairs');
    const call = (method: string, path: string, body?: unknown) =>
      old.api.call(method, path, { key: brand.testKey, body });
    const model = await call('POST', '/v1/dpps', {
      granularity: 'Model',
      gtin: GTIN,
      [V1]: { generalProductInformation: { manufacturerName: 'Voltaic Model Works', warrantyPeriod: 'P8Y' } },
    });
    assert.equal(model.status, 201, model.text);
    const batch = await call('POST', '/v1/dpps', {
      granularity: 'Batch',
      gtin: GTIN,
      lot: LOT,
      [V1]: { generalProductInformation: { warrantyPeriod: 'P10Y' } },
    });
    assert.equal(batch.status, 201, batch.text);
    const inBatch = await enrollAndMint(call, '04E1E2E3E4E501', { ...FULL_PRODUCT, batch_number: LOT });
    const alone = await enrollAndMint(call, '04E1E2E3E4E502', { ...FULL_PRODUCT, batch_number: undefined });
    const logged = await call('POST', '/v1/iaas/log-event', {
      tokenId: inBatch,
      action: 'SHIPPED',
      locationName: 'Port of Hamburg',
      latitude: 53.546,
      longitude: 9.9661,
    });
    assert.equal(logged.status, 201, logged.text);
    await old.temporal.client.workflow.getHandle(`anchor-event:test:${logged.body.eventId}`).result();
    const grant = await call('POST', '/v1/disclosure-grants', {
      granteeCompanyId: repairer.companyId,
      role: 'repairer',
    });
    assert.equal(grant.status, 201, grant.text);
    const endpoint = await call('POST', '/v1/webhooks/endpoints', {
      url: 'https://hooks.voltaic.example/dpp',
      eventTypes: ['asset.minted'],
    });
    assert.equal(endpoint.status, 201, endpoint.text);
    webhookSecret = endpoint.body.secret;

    for (const token of [inBatch, alone]) {
      links.push(`/test/01/${GTIN}/21/${token}`);
      pages.push(`/test/verify/01/${GTIN}/21/${token}`);
    }
    // Model and batch passports: their page, public view and linkset.
    for (const level of [`/01/${GTIN}`, `/01/${GTIN}/10/${LOT}`]) {
      before.set(`/test${level}?format=public`, await answer(old.api, `/test${level}?format=public`));
      before.set(`/test${level}?format=linkset`, await answer(old.api, `/test${level}?format=linkset`));
      before.set(`/test${level}`, await answer(old.api, `/test${level}`, 'text/html'));
      pages.push(`/test/verify${level}`);
    }
    // Read once first: the credentials are signed on their first read and stored, as they are in production.
    for (const link of links) for (const path of addressesOf(link)) await answer(old.api, path);
    for (const link of links) {
      for (const path of addressesOf(link)) {
        before.set(path, await answer(old.api, path, path === link ? 'text/html' : 'application/json'));
      }
    }
    for (const page of pages) before.set(page, await answer(old.api, page, 'text/html'));

    dir = await mkdtemp(join(tmpdir(), 'dpp-exit-'));
    await exportCompany(old.api.db.orm.em, {
      companyId: brand.companyId,
      dir,
      publicBaseUrl: OLD_HOST,
      secrets: undefined,
      progress: quiet,
    });
    sameHost = await startTestApi({ PUBLIC_BASE_URL: OLD_HOST, ISSUER_KEY_TEST });
    newHost = await startTestApi({ PUBLIC_BASE_URL: NEW_HOST, ISSUER_KEY_TEST });
    for (const api of [sameHost, newHost]) {
      await importCompany(api.db.orm.em, {
        dir,
        secrets: new SecretBox(api.config.secrets.dataEncryptionKey),
        oldHost: api === newHost ? OLD_HOST : undefined,
        progress: quiet,
      });
    }
  }, 600_000);
  afterAll(async () => {
    await sameHost?.close();
    await newHost?.close();
    await old?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  test('the bundle: a manifest listing every file with its sha256, open formats per passport', async () => {
    const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8'));
    assert.equal(manifest.format, 'dpp-exit/1');
    assert.equal(manifest.companyId, brand.companyId);
    for (const file of manifest.files) {
      const bytes = await readFile(join(dir, file.path));
      assert.equal(createHash('sha256').update(bytes).digest('hex'), file.sha256, file.path);
    }
    const paths = new Set(manifest.files.map((file: Json) => file.path));
    const [inBatch, alone] = links.map((link) => `passports/test/${GTIN}/${link.split('/').at(-1)}`);
    for (const name of ['aas.json', 'linkset.json', 'public.json', 'vc.json']) {
      assert.ok(paths.has(`${inBatch}/${name}`), name);
      assert.ok(paths.has(`${alone}/${name}`), name);
    }
    // UNTP: one credential for all (untp.json, untp.jwt) or, a passport with product-group data (here its
    // model's), one per audience; each as the old instance stored and served it, byte for byte.
    const stored = async (path: string) => readFile(join(dir, path), 'utf8');
    for (const [i, directory] of [inBatch, alone].entries()) {
      assert.equal(
        await stored(`${directory}/untp-Anonymous.json`),
        before.get(`${links[i]}?format=untp`)!.body,
      );
      assert.equal(
        await stored(`${directory}/untp-Anonymous.jwt`),
        before.get(`${links[i]}?format=vc-jwt`)!.body,
      );
    }
    for (const level of [`levels/test/${GTIN}`, `levels/test/${GTIN}/${LOT}`]) {
      assert.ok(paths.has(`${level}/linkset.json`), level);
    }
    assert.equal(await stored(`${inBatch}/vc.json`), before.get(`${links[0]}?format=vc`)!.body);
    const aas = JSON.parse(await readFile(join(dir, `${inBatch}/aas.json`), 'utf8'));
    assert.equal(aas.assetAdministrationShells.length, 1);
    assert.ok(aas.submodels.length >= 4);
    const endpoints = await readFile(join(dir, 'data/webhook_endpoints.jsonl'), 'utf8');
    assert.ok(endpoints.includes('hooks.voltaic.example'));
    assert.ok(!endpoints.includes('"secret"'), 'no webhook secret without --include-secrets');
    const grants = await readFile(join(dir, 'data/disclosure_grants.jsonl'), 'utf8');
    assert.ok(grants.includes(repairer.companyId));
    const rules = JSON.parse(await readFile(join(dir, 'resolver-rules.json'), 'utf8'));
    assert.ok(rules.rules[0].prefixes.includes(`/test/01/${GTIN}`));
  });

  test('on the instance that took over the host: every address answers byte for byte as before', async () => {
    assert.ok(before.size > 20);
    for (const [path, was] of before) {
      const accept = path.includes('?') ? 'application/json' : 'text/html';
      assert.deepEqual(await answer(sameHost, path, accept), was, path);
    }
  });

  test('on an instance under its own host: the same answers but for the host', async () => {
    // A passport's unique product identifier keeps the host it was issued under (the printed one) on both.
    const hostless = (value: Answer): Answer =>
      JSON.parse(
        JSON.stringify(value).replaceAll(OLD_HOST, 'https://HOST').replaceAll(NEW_HOST, 'https://HOST'),
      );
    for (const [path, was] of before) {
      // Signed credentials name their issuer's did:web: under a new host they are the new issuer's.
      if (/format=(vc|untp|vc-jwt)$/.test(path)) continue;
      const accept = path.includes('?') ? 'application/json' : 'text/html';
      const now = await answer(newHost, path, accept);
      assert.deepEqual(hostless(now), hostless(was), path);
    }
  });

  test('a request addressed to the old host is redirected to the same address on the new one', async () => {
    const path = `${links[0]}?format=public`;
    const url = new URL(newHost.baseUrl);
    const redirect = await new Promise<{ status: number; location: string | undefined }>(
      (resolve, reject) => {
        const sent = request(
          { host: url.hostname, port: url.port, path, headers: { host: new URL(OLD_HOST).host } },
          (response) => {
            response.resume();
            resolve({ status: response.statusCode!, location: response.headers.location });
          },
        );
        sent.on('error', reject);
        sent.end();
      },
    );
    assert.deepEqual(redirect, { status: 308, location: `${NEW_HOST}${path}` });
  });

  test('importing the same bundle again changes nothing', async () => {
    const again = await importCompany(sameHost.db.orm.em, {
      dir,
      secrets: new SecretBox(sameHost.config.secrets.dataEncryptionKey),
      progress: quiet,
    });
    for (const table of again.tables) assert.equal(table.inserted, 0, table.name);
    assert.ok(again.tables.some((table) => table.present > 0));
    for (const [path, was] of before) {
      const accept = path.includes('?') ? 'application/json' : 'text/html';
      assert.deepEqual(await answer(sameHost, path, accept), was, path);
    }
  });

  test('the grant, the webhook endpoint (disabled until its secret is rotated) and the versions came along', async () => {
    const [grant] = await sameHost.db.orm.em.execute(
      'select grantee_company_id, role from disclosure_grants where company_id = ?',
      [brand.companyId],
    );
    assert.deepEqual(grant, { grantee_company_id: repairer.companyId, role: 'repairer' });
    const [endpoint] = await sameHost.db.orm.em.execute<Json[]>(
      'select url, enabled, disabled_reason from webhook_endpoints where company_id = ?',
      [brand.companyId],
    );
    assert.equal(endpoint.url, 'https://hooks.voltaic.example/dpp');
    assert.equal(endpoint.enabled, false);
    assert.match(endpoint.disabled_reason, /rotate/);
    const count = async (api: TestApi) =>
      (
        await api.db.orm.em.execute(
          `select (select count(*) from passport_versions where company_id = ?)::int as items,
             (select count(*) from dpp_level_versions v join dpp_levels l on l.id = v.level_id
               where l.company_id = ?)::int as levels`,
          [brand.companyId, brand.companyId],
        )
      )[0];
    assert.deepEqual(await count(sameHost), await count(old.api));
  });

  test('--include-secrets: the webhook secret travels in clear and is sealed under the new instance’s key', async () => {
    const withSecrets = await mkdtemp(join(tmpdir(), 'dpp-exit-secrets-'));
    const elsewhere = await startTestApi({
      PUBLIC_BASE_URL: OLD_HOST,
      ISSUER_KEY_TEST,
      DATA_ENCRYPTION_KEY: 'b2'.repeat(32),
    });
    try {
      await exportCompany(old.api.db.orm.em, {
        companyId: brand.companyId,
        dir: withSecrets,
        publicBaseUrl: OLD_HOST,
        secrets: new SecretBox(old.api.config.secrets.dataEncryptionKey),
        progress: quiet,
      });
      const line = await readFile(join(withSecrets, 'data/webhook_endpoints.jsonl'), 'utf8');
      assert.equal(Buffer.from(JSON.parse(line).secret, 'base64').toString('utf8'), webhookSecret);
      const box = new SecretBox(elsewhere.config.secrets.dataEncryptionKey);
      await importCompany(elsewhere.db.orm.em, { dir: withSecrets, secrets: box, progress: quiet });
      const [row] = await elsewhere.db.orm.em.execute<Json[]>(
        'select id, secret, enabled from webhook_endpoints where company_id = ?',
        [brand.companyId],
      );
      assert.equal(row.enabled, true);
      const endpoint = {
        id: row.id,
        secret: row.secret,
        previousSecret: null,
        previousSecretExpiresAt: null,
      };
      assert.deepEqual(activeSigningSecrets(box, endpoint), [webhookSecret]);
      // The page of an item answers as on the old instance there too.
      const page = pages[0]!;
      assert.deepEqual(await answer(elsewhere, page, 'text/html'), before.get(page));
    } finally {
      await elsewhere.close();
      await rm(withSecrets, { recursive: true, force: true });
    }
  });
});
