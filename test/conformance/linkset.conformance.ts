import assert from 'node:assert/strict';
import { beforeAll } from 'vitest';
import { http } from '../journeys/client.ts';
import { standard } from './support/clause.ts';
import { conformanceLevels } from './support/levels.ts';
import { checkGs1Linkset, GS1_SCHEMA_FILES } from './support/linkset-schema.ts';
import { type ConformancePassport, conformancePassport, passportLinkset } from './support/passport.ts';
import { npmVersion } from './support/tools.ts';

// biome-ignore lint/suspicious/noExplicitAny: the linkset as the service answers it
type Json = any;

standard(
  {
    name: 'RFC 9264 linkset, GS1-Conformant Resolver 1.2.0 linkset schema, IANA dpp relation',
    checkedWith: `ajv ${npmVersion('ajv')} (draft-07, as GS1's resolver test suite) with GS1's ${GS1_SCHEMA_FILES.linkset}`,
    reference: 'https://ref.gs1.org/standards/resolver/',
  },
  (clause) => {
    let passport: ConformancePassport;
    let linkset: Json;
    let context: Json;

    beforeAll(async () => {
      passport = await conformancePassport();
      ({ linkset, context } = await passportLinkset(passport));
    });

    clause(
      'linkset-schema',
      "the passport's linkset validates against the GS1 resolver's linkset schema",
      () => {
        const verdict = checkGs1Linkset(linkset);
        assert.equal(verdict.valid, true, JSON.stringify(verdict.errors));
        // The schema is not a rubber stamp: a target without its href is refused.
        const broken = structuredClone(linkset);
        delete broken.linkset[0]['https://gs1.org/voc/dpp'][0].href;
        assert.equal(checkGs1Linkset(broken).valid, false);
      },
    );

    clause('iana-dpp', 'the IANA-registered dpp relation links the passport beside gs1:dpp', async () => {
      const targets = context.dpp as { href: string; type?: string }[] | undefined;
      assert.ok(targets?.length, `a dpp relation in ${JSON.stringify(context).slice(0, 500)}`);
      assert.deepEqual(targets, context['https://gs1.org/voc/dpp'], 'the same targets as gs1:dpp');
      for (const target of targets) {
        const answer = await http('GET', target.href, {
          env: null,
          headers: target.type ? { accept: target.type } : {},
        });
        assert.equal(answer.status, 200, `${target.href}: ${answer.status}`);
        if (target.type) assert.ok(answer.headers.get('content-type')?.startsWith(target.type), target.href);
      }
    });

    clause('passport-forms', 'the UNTP credential and its VC-JOSE form are linked', () => {
      const types = (context.dpp as { href: string; type?: string }[]).map((t) => [
        new URL(t.href).searchParams.get('format'),
        t.type,
      ]);
      assert.deepEqual(
        types.filter(([format]) => format === 'untp' || format === 'vc-jwt'),
        [
          ['untp', 'application/ld+json'],
          ['vc-jwt', 'application/vc+jwt'],
        ],
      );
    });

    clause(
      'level-linksets',
      "a model's and a batch's linkset validate against the same schema; the batch links its model",
      async () => {
        const { model, batch } = await conformanceLevels();
        for (const level of [model, batch]) {
          const { linkset: levelLinkset, context: levelContext } = await passportLinkset(level);
          const verdict = checkGs1Linkset(levelLinkset);
          assert.equal(verdict.valid, true, `${level.granularity}: ${JSON.stringify(verdict.errors)}`);
          assert.ok(levelContext.dpp?.length, `${level.granularity}: a dpp relation`);
        }
        const { context: batchContext } = await passportLinkset(batch);
        assert.deepEqual(
          batchContext['https://schema.org/model'].map((target: { href: string }) => target.href),
          [model.digitalLink],
        );
      },
    );
  },
);
