import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { chipUid, cliTap, http, ok, stack, waitFor } from '../../journeys/client.ts';
import { JOURNEY_GTIN } from '../../journeys/shared.ts';

export interface ConformancePassport {
  gtin: string;
  tokenId: string;
  chipUid: string;
  /** The passport's Digital Link path (test environment): `/test/01/{gtin}/21/{tokenId}`. */
  path: string;
  /** The Digital Link as the service publishes it (absolute). */
  digitalLink: string;
}

/** The demo company's API, with the key `npm start` prints, as an integrator calls it. */
export const api = (method: string, path: string, body?: unknown) =>
  http(method, path, { key: stack().demoKey, ...(body === undefined ? {} : { body }) });

/**
 * The passport the checks read: made once per run through the public API as a brand makes one (provision a
 * twin, bind a chip, the chip's first tap with `npm run cli -- tap`, mint), then shared by every check file
 * (they run one after another; the file in the run's data directory says it exists). `number` 2, 3, … make
 * further passports of the same product, for checks that need more than one (paging).
 */
export async function conformancePassport(number = 1): Promise<ConformancePassport> {
  const file = join(stack().dataDir, 'conformance', `passport-${number}.json`);
  if (existsSync(file)) return JSON.parse(await readFile(file, 'utf8')) as ConformancePassport;
  const passport = await makePassport(number);
  await mkdir(join(stack().dataDir, 'conformance'), { recursive: true });
  await writeFile(file, JSON.stringify(passport));
  return passport;
}

async function makePassport(number: number): Promise<ConformancePassport> {
  // The brand names itself as the economic operator (its GLN) and its factory, as EN 18223's header wants.
  await ok(
    api('PATCH', '/v1/company/settings', {
      economicOperatorId: '4012345000009',
      facilityId: 'urn:epc:id:sgln:4012345.00001.0',
    }),
    'company settings',
  );
  const provisioned = await ok(
    api('POST', '/v1/erp/provision/bulk', {
      items: [
        { erp_metadata: { material_number: `MAT-CONFORMANCE-${number}`, order_id: `PO-${Date.now()}` } },
      ],
    }),
    'provision',
  );
  const twin = /"service_internal_id":"([^"]+)"/.exec(JSON.stringify(provisioned))?.[1];
  assert.ok(twin, JSON.stringify(provisioned));
  const chip = chipUid(0xc0, number);
  await ok(
    api('POST', '/v1/factory/bind', { service_internal_id: twin, hardware: { chip_uid: chip } }),
    'bind',
  );
  const { nfcData } = await cliTap(chip);
  const mint = await api('POST', '/v1/dpp/mint', {
    name: number === 1 ? 'Conformance Jacket' : `Conformance Jacket ${number}`,
    chipUid: chip,
    nfcData,
    custom_dpp_data: {
      gtin: JOURNEY_GTIN,
      conformity_url: 'https://brand.example/doc/conformity.pdf',
      originCountry: 'PT',
      hsCode: '620193',
      category: 'Apparel',
      batch_number: 'LOT-2026-11',
      manufacturer_name: 'Trail Brand Lda',
      manufacturer_address: 'Rua do Porto 1, 4000-001 Porto, PT',
      manufacturer_gln: '4012345000009',
      svhc_exists: false,
      material_composition: { polyester: 70, elastane: 30 },
      carbon_footprint: 12.5,
      recycled_content: 40,
      repairability_score: 7,
      expected_lifespan_years: 5,
    },
  });
  assert.ok(mint.status === 201 || mint.status === 202, `mint: ${mint.status} ${mint.text.slice(0, 300)}`);
  // A mint that outlasts MINT_WAIT_MS answers 202: its status resource says when the chain has it.
  const minted =
    mint.status === 201
      ? mint.body
      : (
          await waitFor(
            'the mint completed',
            async () => (await api('GET', `/v1/dpp/mint/${chip}`)).body,
            (status) => status?.status !== 'RUNNING',
            120,
          )
        ).result;
  assert.ok(minted?.blockchain?.tokenId !== undefined, `mint: ${JSON.stringify(minted)}`);
  const tokenId = String(minted.blockchain.tokenId);
  const path = `/test/01/${JOURNEY_GTIN}/21/${tokenId}`;
  const passport: ConformancePassport = {
    gtin: JOURNEY_GTIN,
    tokenId,
    chipUid: chip,
    path,
    digitalLink: `${stack().baseUrl}${path}`,
  };
  return passport;
}

// biome-ignore lint/suspicious/noExplicitAny: the linkset as the service answers it
type LinksetJson = any;

/**
 * The passport's linkset as a GS1 resolver client asks for it (`?linkType=linkset`, accept
 * application/linkset+json, no environment header), and its link context anchored at the Digital Link; asserts the
 * answer is a 200 linkset with that context.
 */
export async function passportLinkset(
  passport: Pick<ConformancePassport, 'path' | 'digitalLink'>,
): Promise<{ linkset: LinksetJson; context: LinksetJson }> {
  const answer = await http('GET', `${passport.path}?linkType=linkset`, {
    env: null,
    headers: { accept: 'application/linkset+json' },
  });
  assert.equal(answer.status, 200, answer.text.slice(0, 300));
  assert.match(answer.headers.get('content-type') ?? '', /^application\/linkset\+json/);
  const linkset = answer.body;
  const context = linkset.linkset.find((c: { anchor: string }) => c.anchor === passport.digitalLink);
  assert.ok(context, `a link context anchored at ${passport.digitalLink}`);
  return { linkset, context };
}
