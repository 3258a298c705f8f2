import assert from 'node:assert/strict';
import digitalLinkJs from 'digital-link.js';
import { beforeAll } from 'vitest';
import { http } from '../journeys/client.ts';
import { EN_18223_MANDATORY_HEADER as MANDATORY } from '../support/en-18223-header.ts';
import { standard } from './support/clause.ts';
import { type ConformancePassport, conformancePassport } from './support/passport.ts';

const { DigitalLink } = digitalLinkJs;
const OURS = 'HTTP checks of ours: no third-party validator of EN 18222/18223 exists';

/** The header as each representation carries it: public view, EN 18222 document, UNTP credential. */
async function headers(passport: ConformancePassport) {
  const read = async (path: string) => {
    const answer = await http('GET', path, { env: null });
    assert.equal(answer.status, 200, `${path}: ${answer.text.slice(0, 300)}`);
    return answer.body;
  };
  const pub = (await read(`${passport.path}?format=public`)).dppHeader;
  const dppId = encodeURIComponent(pub.digitalProductPassportId);
  const dpp = await read(`/test/v1/dpps/${dppId}`);
  const untp = (await read(`${passport.path}?format=untp`)).credentialSubject.characteristics.passportHeader;
  return { pub, dpp, untp };
}

standard(
  {
    name: 'EN 18223 DPP header (as OPC 30450-1 maps it)',
    checkedWith: OURS,
    reference: 'en18223.md',
  },
  (clause) => {
    let passport: ConformancePassport;
    let found: Awaited<ReturnType<typeof headers>>;
    beforeAll(async () => {
      passport = await conformancePassport();
      found = await headers(passport);
    });

    clause(
      'unique-product-identifier',
      "uniqueProductIdentifier is the passport's GS1 Digital Link in every representation",
      () => {
        for (const [where, header] of Object.entries(found)) {
          assert.equal(header.uniqueProductIdentifier, passport.digitalLink, where);
        }
        const link = DigitalLink(passport.digitalLink);
        assert.ok(link.isValid(), 'a valid GS1 Digital Link, check digit included');
      },
      { checkedWith: 'digital-link.js 1.4.3 (npm)' },
    );
    clause('mandatory-members', 'the mandatory header members, the same in every representation', () => {
      for (const [where, header] of Object.entries(found)) {
        for (const member of MANDATORY) assert.ok(member in header, `${where} lacks ${member}`);
        for (const member of MANDATORY)
          assert.deepEqual(header[member], found.pub[member], `${where}.${member}`);
      }
      assert.match(found.pub.digitalProductPassportId, /^urn:uuid:[0-9a-f-]{36}$/);
      assert.equal(found.pub.granularity, 'item');
      assert.equal(found.pub.dppStatus, 'active');
      assert.ok(!Number.isNaN(Date.parse(found.pub.lastUpdated)), 'lastUpdated is a date-time');
    });
    clause.leftOut(
      'standard-text',
      "the header's members and values as EN 18223 words them",
      "EN 18223's text is not public: the members follow OPC 30450-1 DigitalProductPassportType (docs/en18223.md)",
    );
  },
);

standard(
  {
    name: 'EN 18222 DPP API reads (paths of Eclipse BaSyx Go)',
    checkedWith: OURS,
    reference: 'en18222.md',
  },
  (clause) => {
    let passport: ConformancePassport;
    let dppId: string;
    beforeAll(async () => {
      passport = await conformancePassport();
      const pub = await http('GET', `${passport.path}?format=public`, { env: null });
      dppId = pub.body.dppHeader.digitalProductPassportId;
    });

    clause(
      'read-by-id',
      'ReadDPPById: compressed by default, full on request, public without a credential',
      async () => {
        const compressed = await http('GET', `/test/v1/dpps/${encodeURIComponent(dppId)}`, { env: null });
        assert.equal(compressed.status, 200, compressed.text.slice(0, 300));
        assert.equal(compressed.body.digitalProductPassportId, dppId);
        const full = await http('GET', `/test/v1/dpps/${encodeURIComponent(dppId)}?representation=full`, {
          env: null,
        });
        assert.equal(full.status, 200, full.text.slice(0, 300));
        assert.ok(Array.isArray(full.body.elements), 'the full representation lists elements');
      },
    );
    clause('read-by-product-id', 'ReadDPPByProductId: the Digital Link finds the same passport', async () => {
      const answer = await http(
        'GET',
        `/test/v1/dppsByProductId/${encodeURIComponent(passport.digitalLink)}`,
        {
          env: null,
        },
      );
      assert.equal(answer.status, 200, answer.text.slice(0, 300));
      assert.equal(answer.body.digitalProductPassportId, dppId);
    });
    clause('read-ids-by-product-ids', 'ReadDPPIdsByProductIds: many product ids at once', async () => {
      const unknown = passport.digitalLink.replace(/\/21\/[^/?#]+/, '/21/999999999');
      const answer = await http('POST', '/test/v1/dppIdsByProductIds', {
        env: null,
        body: { productIds: [passport.digitalLink, unknown] },
      });
      assert.equal(answer.status, 200, answer.text.slice(0, 300));
      assert.deepEqual(answer.body.items, [dppId]);
    });
    clause('versions', 'a version of the passport stays readable by number', async () => {
      const versions = await http('GET', `/test/v1/dpps/${encodeURIComponent(dppId)}/versions`, {
        env: null,
      });
      assert.equal(versions.status, 200, versions.text.slice(0, 300));
      const first = versions.body.items[0];
      assert.ok(first, 'at least one version');
      const one = await http('GET', `/test/v1/dpps/${encodeURIComponent(dppId)}/versions/${first.number}`, {
        env: null,
      });
      assert.equal(one.status, 200, one.text.slice(0, 300));
      assert.equal(one.body.dpp.digitalProductPassportId, dppId);
    });
    clause.leftOut(
      'basyx-openapi-schema',
      "the answers against BaSyx Go's OpenAPI schemas",
      'BaSyx names the time member lastUpdate and capitalises granularity and dppStatus values; we follow OPC 30450-1 (docs/en18222.md), so its schemas would refuse the documented names',
    );
  },
);
