import assert from 'node:assert/strict';
import digitalLinkJs from 'digital-link.js';
import { beforeAll, type TestContext } from 'vitest';
import { cliTap, http, stack } from '../journeys/client.ts';
import { standard } from './support/clause.ts';
import { conformanceLevels } from './support/levels.ts';
import { type ConformancePassport, conformancePassport } from './support/passport.ts';
import { npmVersion } from './support/tools.ts';

const { DigitalLink } = digitalLinkJs;
const VERSION = '1.4.3';

/**
 * GS1's toolkit judges one URI: the Digital Link grammar (ABNF, the toolkit's own parser) and the key's check
 * digit (`isValid`), and it must read back the same URI (nothing of it left unparsed). A fragment (a page's
 * section, `#recycling`) is not part of what a resolver receives: the URI before it is judged.
 */
function judge(anchor: string): string | undefined {
  const uri = anchor.split('#')[0]!;
  let link: ReturnType<typeof DigitalLink>;
  try {
    link = DigitalLink(uri);
  } catch (error) {
    return `${uri}: ${(error as Error).message}`;
  }
  if (!link.isValid()) {
    const trace = link.getValidationTrace().trace;
    return `${uri}: not a valid GS1 Digital Link (left unparsed: "${trace.at(-1)?.remainder ?? uri}")`;
  }
  if (!link.isCheckDigitValid()) return `${uri}: wrong check digit`;
  const withoutQuery = (value: string) => value.split('?')[0];
  if (withoutQuery(link.toWebUriString()) !== withoutQuery(uri)) {
    return `${uri}: read back as ${link.toWebUriString()}`;
  }
  return undefined;
}

async function assertDigitalLinks(context: TestContext, what: string, uris: string[]) {
  assert.ok(uris.length > 0, `${what}: no anchors found`);
  const problems = uris.map(judge).filter(Boolean);
  assert.deepEqual(problems, [], `${what}: ${problems.join('\n')}`);
  await context.annotate(`${what}: ${uris.length} URIs judged`, 'conformance');
}

/** The answer's body for a representation of the passport (as a phone or a verifier asks, no header). */
async function read(passport: Pick<ConformancePassport, 'path'>, query: string, accept = 'application/json') {
  const answer = await http('GET', `${passport.path}${query}`, { env: null, headers: { accept } });
  assert.equal(answer.status, 200, `${query}: ${answer.text.slice(0, 300)}`);
  return answer;
}

/** The Digital Links an HTML page links to (href attributes holding a GS1 key path). */
function pageLinks(html: string, base: string): string[] {
  return [...html.matchAll(/href="([^"]*\/01\/[^"]*)"/g)].map((m) =>
    new URL(m[1]!.replace(/&amp;/g, '&'), base).toString(),
  );
}

standard(
  {
    name: 'GS1 Digital Link URI Syntax 1.4',
    checkedWith: `digital-link.js ${VERSION} (npm, GS1 Digital Link toolkit)`,
    reference: 'https://ref.gs1.org/standards/digital-link/uri-syntax/',
  },
  (clause) => {
    let passport: ConformancePassport;
    beforeAll(async () => {
      assert.equal(npmVersion('digital-link.js'), VERSION, 'the validator installed is the one named');
      passport = await conformancePassport();
    });

    clause('validator-control', 'the toolkit refuses a wrong check digit and a malformed key', () => {
      const good = passport.digitalLink;
      assert.equal(judge(good), undefined);
      const gtin = passport.gtin;
      const wrongDigit = `${gtin.slice(0, 13)}${(Number(gtin[13]) + 1) % 10}`;
      assert.notEqual(judge(good.replace(gtin, wrongDigit)), undefined, 'a wrong check digit must fail');
      assert.notEqual(judge(good.replace(gtin, `${gtin}x`)), undefined, 'a malformed GTIN must fail');
    });

    clause(
      'chip-url',
      "the URL a tap of the passport's chip produces (the Digital Link with its SUN parameters)",
      async (context) => {
        const { url } = await cliTap(passport.chipUid, { gtin: passport.gtin, serial: passport.tokenId });
        assert.ok(url, 'npm run cli -- tap prints the URL the chip carries');
        assert.ok(url.startsWith(passport.digitalLink), `${url} is the passport's Digital Link`);
        await assertDigitalLinks(context, 'chip URL', [url]);
      },
    );

    clause(
      'resolver-address',
      "the passport's Digital Link (resolver address) and its HTML redirect",
      async (context) => {
        const redirect = await http('GET', passport.path, { env: null, headers: { accept: 'text/html' } });
        assert.equal(redirect.status, 307);
        const location = new URL(redirect.headers.get('location') ?? '', stack().baseUrl).toString();
        await assertDigitalLinks(context, 'resolver', [passport.digitalLink, location]);
      },
    );

    clause(
      'id-anchors',
      'the @id of the public document and the credential subject id / dpp:upi',
      async (context) => {
        const pub = (await read(passport, '?format=public')).body;
        const vc = (await read(passport, '?format=vc')).body;
        assert.equal(pub['@id'], passport.digitalLink, 'the @id is the Digital Link the passport answers at');
        await assertDigitalLinks(context, '@id', [
          pub['@id'],
          vc.credentialSubject.id,
          vc.credentialSubject['dpp:upi'],
        ]);
        const provenance = (vc.credentialSubject.provenance ?? []) as { id: string }[];
        await assertDigitalLinks(
          context,
          'provenance ids (before the fragment)',
          provenance.map((entry) => entry.id.split('#')[0]!),
        );
      },
    );

    clause('aas-asset-id', "the AAS shell's globalAssetId", async (context) => {
      const aas = (await read(passport, '?format=aas')).body;
      const found = JSON.stringify(aas).match(/"globalAssetId":"([^"]+)"/)?.[1];
      assert.ok(found, 'format=aas has a globalAssetId');
      await assertDigitalLinks(context, 'globalAssetId', [found]);
    });

    clause(
      'linkset-anchors',
      "the linkset's anchor and every target on the service's own resolver",
      async (context) => {
        const answer = await read(passport, '?format=linkset', 'application/linkset+json');
        const linkset = answer.body.linkset as Record<string, unknown>[];
        assert.ok(Array.isArray(linkset) && linkset.length > 0);
        const anchors = linkset.map((context) => String(context.anchor));
        const hrefs = linkset.flatMap((context) =>
          Object.values(context)
            .filter(Array.isArray)
            .flat()
            .map((target) => String((target as { href?: string }).href))
            .filter((href) => href.startsWith(stack().baseUrl) && href.includes('/01/')),
        );
        assert.ok(hrefs.length >= 3, `links to the passport's own forms and page: ${hrefs.join(', ')}`);
        const header = /<([^>]+)>;\s*rel="linkset"/.exec(answer.headers.get('link') ?? '')?.[1];
        assert.ok(header, 'a Link header rel=linkset');
        await assertDigitalLinks(context, 'linkset', [
          ...anchors,
          ...hrefs,
          new URL(header, stack().baseUrl).toString(),
        ]);
      },
    );

    clause(
      'verification-page-links',
      'every Digital Link the verification page links to',
      async (context) => {
        const page = await http('GET', passport.path.replace('/01/', '/verify/01/'), {
          env: null,
          headers: { accept: 'text/html' },
        });
        assert.equal(page.status, 200);
        await assertDigitalLinks(context, 'verification page', [
          `${stack().baseUrl}${passport.path.replace('/01/', '/verify/01/')}`,
          ...pageLinks(page.text, stack().baseUrl),
        ]);
      },
    );

    clause(
      'level-anchors',
      "a model's and a batch's Digital Links in each of their formats (public, vc, aas, linkset)",
      async (context) => {
        const { model, batch } = await conformanceLevels();
        const uris: string[] = [];
        for (const level of [model, batch]) {
          const pub = (await read(level, '?format=public')).body;
          const vc = (await read(level, '?format=vc')).body;
          const aas = (await read(level, '?format=aas')).body;
          const linkset = (await read(level, '?format=linkset', 'application/linkset+json')).body.linkset;
          assert.equal(pub['@id'], level.digitalLink);
          assert.equal(aas.assetInformation.globalAssetId, level.digitalLink);
          uris.push(
            pub['@id'],
            vc.credentialSubject.id,
            vc.credentialSubject['dpp:upi'],
            aas.assetInformation.globalAssetId,
            ...linkset.map((entry: { anchor: string }) => entry.anchor),
            ...linkset.flatMap((entry: Record<string, unknown>) =>
              Object.values(entry)
                .filter(Array.isArray)
                .flat()
                .map((target) => String((target as { href?: string }).href))
                .filter((href) => href.startsWith(stack().baseUrl) && href.includes('/01/')),
            ),
          );
          if (vc.credentialSubject['idpp:modelPassport'])
            uris.push(vc.credentialSubject['idpp:modelPassport'].id);
        }
        assert.ok(uris.includes(model.digitalLink) && uris.includes(batch.digitalLink));
        await assertDigitalLinks(context, 'model and batch', uris);
      },
    );
  },
);
