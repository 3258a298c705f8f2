import assert from 'node:assert/strict';
import digitalLinkJs from 'digital-link.js';
import { beforeAll } from 'vitest';
import { http, stack } from '../journeys/client.ts';
import { standard } from './support/clause.ts';
import { type ConformancePassport, conformancePassport, passportLinkset } from './support/passport.ts';

const { DigitalLink } = digitalLinkJs;
const DPP = 'https://gs1.org/voc/dpp';

standard(
  {
    name: 'GS1-Conformant Resolver 1.2.0',
    checkedWith: 'digital-link.js 1.4.3 (linkType parsing); HTTP as a GS1 resolver client',
    reference: 'https://ref.gs1.org/standards/resolver/',
  },
  (clause) => {
    let passport: ConformancePassport;
    // biome-ignore lint/suspicious/noExplicitAny: the linkset as the service answers it
    let context: any;

    beforeAll(async () => {
      passport = await conformancePassport();
      ({ context } = await passportLinkset(passport));
    });

    clause(
      'gs1-dpp-link',
      'the linkset has a gs1:dpp link to the passport credential, and it resolves',
      async () => {
        const targets = context[DPP] as { href: string; type?: string }[] | undefined;
        assert.ok(targets?.length, `a ${DPP} relation in ${JSON.stringify(context).slice(0, 500)}`);
        for (const target of targets) {
          const answer = await http('GET', target.href, {
            env: null,
            headers: { accept: target.type ?? 'application/ld+json' },
          });
          assert.equal(answer.status, 200, `${target.href}: ${answer.status}`);
          if (target.type) assert.ok(answer.headers.get('content-type')?.startsWith(target.type));
          // The credential, as JSON-LD or as a VC-JOSE compact JWS (whose payload is the credential).
          const credential =
            target.type === 'application/vc+jwt'
              ? JSON.parse(Buffer.from(answer.text.split('.')[1] ?? '', 'base64url').toString())
              : answer.body;
          assert.ok(
            credential.type.includes('VerifiableCredential'),
            `${target.href}: the passport credential`,
          );
        }
      },
    );

    clause(
      'linktype-request',
      'a request with ?linkType=gs1:dpp is redirected to the gs1:dpp target',
      async () => {
        const request = `${passport.digitalLink}?linkType=gs1:dpp`;
        assert.equal(DigitalLink(request).getLinkType(), 'gs1:dpp', 'GS1 toolkit reads the link type');
        const answer = await http('GET', request, { env: null });
        assert.equal(answer.status, 307);
        const location = new URL(answer.headers.get('location') ?? '', stack().baseUrl).toString();
        const hrefs = (context[DPP] as { href: string }[]).map((t) => t.href);
        assert.ok(hrefs.includes(location), `${location} is one of ${hrefs.join(', ')}`);
      },
    );

    clause(
      'default-link',
      'the Digital Link without linkType or format answers with a redirect to its default link (absolute)',
      async () => {
        const defaults = (context['https://gs1.org/voc/defaultLink'] ?? []) as { href: string }[];
        assert.equal(defaults.length, 1, 'one gs1:defaultLink');
        for (const accept of ['text/html', '*/*']) {
          const answer = await http('GET', passport.path, { env: null, headers: { accept } });
          assert.equal(answer.status, 307, accept);
          assert.equal(answer.headers.get('location'), defaults[0]!.href, accept);
        }
      },
    );
  },
);
