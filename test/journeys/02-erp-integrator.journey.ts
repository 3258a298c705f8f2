import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { localDocumentLoader, verifyWithDigitalBazaar } from '../support/credential-verifier.ts';
import { chipUid, cliTap, http, ok, stack, waitFor } from './client.ts';
import { JOURNEY_GTIN, remember } from './shared.ts';

const TWINS = 1000;
const PASSPORTS = 20;
/** A passport lives for years: one is followed through a busy year, the others through a year of months. */
const LONG_LIFE_EVENTS = 300;
const MONTHLY_EVENTS = 12;
const ROUTE = [
  { action: 'QC_PASSED', locationName: 'Porto factory', latitude: 41.1579, longitude: -8.6291 },
  { action: 'SHIPPED', locationName: 'Port of Leixões', latitude: 41.1853, longitude: -8.7024 },
  { action: 'CUSTOMS_CLEARED', locationName: 'Port of Hamburg', latitude: 53.546, longitude: 9.966 },
  { action: 'DELIVERED', locationName: 'Berlin store', latitude: 52.52, longitude: 13.405 },
];

// The brand's ERP integrator, on the demo key npm start prints: provisions a production order in bulk, the
// factory binds chips to twins and mints their passports, and logistics log a year of events.
describe('an ERP integrator runs a production order and a year of logistics', () => {
  const key = () => stack().demoKey;
  const call = (method: string, path: string, body?: unknown) =>
    http(method, path, { key: key(), ...(body === undefined ? {} : { body }) });

  test(`bulk-provisions ${TWINS} twins, binds and mints ${PASSPORTS}, logs ${LONG_LIFE_EVENTS} + ${MONTHLY_EVENTS} each`, async () => {
    const order = `PO-${Date.now()}`;
    const bulk = await ok(
      call('POST', '/v1/erp/provision/bulk', {
        items: Array.from({ length: TWINS }, (_, i) => ({
          erp_metadata: { material_number: `MAT-4711-${i + 1}`, order_id: order },
        })),
      }),
      'bulk provision',
    );
    const twins = JSON.stringify(bulk).match(/"service_internal_id":"[^"]+"/g) ?? [];
    assert.equal(twins.length, TWINS, 'one twin per item');
    const ids = twins.map((t) => t.split('"')[3]!);

    const tokens: { tokenId: string; chipUid: string }[] = [];
    for (let i = 0; i < PASSPORTS; i++) {
      const chip = chipUid(0x0e, i);
      const bound = await ok(
        call('POST', '/v1/factory/bind', { service_internal_id: ids[i], hardware: { chip_uid: chip } }),
        `bind ${i}`,
      );
      assert.match(bound.message, /ACTIVE/);
      // The chip's first read, made as the README says: npm run cli -- tap.
      const { nfcData } = await cliTap(chip);
      const minted = await ok(
        call('POST', '/v1/dpp/mint', {
          name: `Trail Jacket #${i + 1}`,
          chipUid: chip,
          nfcData,
          custom_dpp_data: {
            gtin: JOURNEY_GTIN,
            conformity_url: 'https://brand.example/doc/conformity.pdf',
            originCountry: 'PT',
            material_composition: { polyester: 70, elastane: 30 },
          },
        }),
        `mint ${i}`,
      );
      tokens.push({ tokenId: minted.blockchain.tokenId, chipUid: chip });
    }
    remember('passports', tokens);

    const [longLived, ...others] = tokens;
    const logged: number[] = [];
    for (let i = 0; i < LONG_LIFE_EVENTS; i++) {
      const step = ROUTE[i % ROUTE.length]!;
      const answer = await ok(
        call('POST', '/v1/iaas/log-event', {
          tokenId: longLived!.tokenId,
          ...step,
          metadata: { day: i + 1 },
        }),
        `event ${i + 1}`,
      );
      logged.push(answer.eventId);
    }
    for (const passport of others) {
      for (let month = 0; month < MONTHLY_EVENTS; month++) {
        const step = ROUTE[month % ROUTE.length]!;
        await ok(
          call('POST', '/v1/iaas/log-event', { tokenId: passport.tokenId, ...step, metadata: { month } }),
          `monthly event ${month}`,
        );
      }
    }

    const events = await waitFor(
      'every event anchored on chain',
      async () => (await call('GET', `/v1/iaas/events?tokenId=${longLived!.tokenId}&limit=1000`)).body,
      (body) =>
        (body?.events as { transactionHash?: string }[] | undefined)?.filter((e) => e.transactionHash)
          .length ===
        LONG_LIFE_EVENTS + 1,
      300,
    );
    assert.equal(events.events.length, LONG_LIFE_EVENTS + 1, 'the mint and every logged event');

    const inventory = await ok(call('GET', '/v1/dpp/inventory'), 'inventory');
    const minted = new Set(tokens.map((t) => t.tokenId));
    assert.equal(
      inventory.inventory.filter(
        (item: { tokenId: string | null }) => item.tokenId && minted.has(item.tokenId),
      ).length,
      PASSPORTS,
    );

    // After a busy year the credential is still served and an independent verifier accepts it.
    const passportPath = `/test/01/${JOURNEY_GTIN}/21/${longLived!.tokenId}`;
    const vc = await http('GET', `${passportPath}?format=vc`, { env: null });
    assert.equal(vc.status, 200, vc.text.slice(0, 500));
    assert.equal(vc.body.credentialSubject.provenance.length, LONG_LIFE_EVENTS + 1);
    const loader = await localDocumentLoader({ baseUrl: stack().baseUrl, publicBaseUrl: stack().baseUrl });
    const verified = await verifyWithDigitalBazaar(vc.body, loader.documentLoader);
    assert.equal(verified.verified, true, JSON.stringify(verified.error ?? verified, null, 1).slice(0, 2000));

    const page = await http('GET', `/test/verify/01/${JOURNEY_GTIN}/21/${longLived!.tokenId}`, {
      env: null,
      headers: { accept: 'text/html' },
    });
    assert.equal(page.status, 200);
    assert.equal(page.text.match(/Port of Hamburg/g)?.length, LONG_LIFE_EVENTS / ROUTE.length);
  });
});
