import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import {
  AAS_SUBMODEL_VALIDATE_VERSION,
  AAS_TEST_ENGINES_VERSION,
  checkAasFile,
  checkSubmodelTemplates,
  obtainAasTools,
} from '../../scripts/dev/aas-tools.ts';
import { http, stack } from '../journeys/client.ts';
import { conformanceBattery } from './support/battery-passport.ts';
import { standard } from './support/clause.ts';
import { DPPVALIDATOR_VERSION, type DppvalidatorReport, runDppvalidator } from './support/dppvalidator.ts';
import { api } from './support/passport.ts';

// biome-ignore lint/suspicious/noExplicitAny: documents as the service answers them
type Json = any;

const BATTERY_TEMPLATES = [
  'https://admin-shell.io/idta/digitalbatterypassport/nameplate/1/0/Nameplate',
  'https://admin-shell.io/idta/digitalbatterypassport/TechnicalData/1/0',
  'urn:samm:io.admin-shell.idta.batterypass.product_condition:1.0.2#ProductCondition',
  'urn:samm:io.admin-shell.idta.batterypass.circularity:1.0.0#Circularity',
];

standard(
  {
    name: 'EU battery passport: IDTA-02035 Digital Battery Passport submodels (AAS)',
    checkedWith: `aas-submodel-validate ${AAS_SUBMODEL_VALIDATE_VERSION} (smtv); aas-test-engines ${AAS_TEST_ENGINES_VERSION} check_file (PyPI)`,
    reference: 'https://industrialdigitaltwin.org/en/content-hub/submodels',
  },
  (clause) => {
    let dir: string;
    let file: string;
    let environment: Json;

    beforeAll(async () => {
      await obtainAasTools();
      const battery = await conformanceBattery();
      // The battery passport's whole AAS environment, as its brand reads it (every battery submodel).
      const answer = await api('GET', `${battery.contentPath}?format=aas`);
      assert.equal(answer.status, 200, answer.text.slice(0, 300));
      environment = answer.body;
      dir = await mkdtemp(join(tmpdir(), 'conformance-battery-'));
      file = join(dir, 'battery-environment.json');
      await writeFile(file, JSON.stringify(environment));
    }, 300_000);
    afterAll(async () => {
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    clause(
      'idta-02035-templates',
      'Battery Nameplate (02035-1), Technical Data (-4), Product Condition (-5), Circularity (-7) and Carbon Footprint (02023) carry their templates’ elements',
      async (context) => {
        const semanticIds = environment.submodels.map((s: Json) => s.semanticId?.keys?.[0]?.value);
        for (const template of BATTERY_TEMPLATES) assert.ok(semanticIds.includes(template), template);
        const report = await checkSubmodelTemplates(file);
        assert.equal(report.ok, true, JSON.stringify(report.findings.slice(0, 5)));
        assert.equal(report.summary.errors, 0, JSON.stringify(report.findings.slice(0, 5)));
        assert.ok(report.summary.submodelsJudged >= 5, `judged ${report.summary.submodelsJudged}`);
        await context.annotate(
          `${report.summary.submodelsJudged} submodels judged, ${report.summary.warnings} warnings`,
          'conformance',
        );
      },
    );
    clause('metamodel', 'the battery passport’s environment meets the AAS v3 metamodel', async (context) => {
      const report = await checkAasFile(file);
      assert.ok(report.ok && report.errors.length === 0, report.errors.slice(0, 5).join('\n'));
      await context.annotate(
        report.warnings.length === 0 ? 'no warnings' : `${report.warnings.length} warnings`,
        'conformance',
      );
    });
  },
);

const AUDIENCES = ['Anonymous', 'Customer', 'Regulator', 'Recycler', 'Auditor'] as const;

standard(
  {
    name: 'UNTP Digital Product Passport 0.7.0: per-audience variants of the battery passport',
    checkedWith: `dppvalidator ${DPPVALIDATOR_VERSION} (PyPI)`,
    reference: 'https://uncefact.github.io/spec-untp/docs/specification/DigitalProductPassport',
  },
  (clause) => {
    const reports = new Map<string, { credential: Json; report: DppvalidatorReport }>();

    beforeAll(async () => {
      const battery = await conformanceBattery();
      for (const audience of AUDIENCES) {
        // The brand reads every audience's variant (others need the audience's role: docs/untp.md).
        const query = audience === 'Anonymous' ? '?format=untp' : `?format=untp&accessRole=${audience}`;
        const answer = await http('GET', `${battery.path}${query}`, { env: null, key: stack().demoKey });
        assert.equal(answer.status, 200, answer.text.slice(0, 300));
        const credential = answer.body;
        assert.equal(credential.accessRole, audience);
        const contexts: Record<string, unknown> = {};
        for (const url of credential['@context'] as string[]) {
          const own = new URL(url);
          if (own.origin !== new URL(battery.digitalLink).origin) continue;
          const fetched = await http('GET', own.pathname, { env: null });
          assert.equal(fetched.status, 200, url);
          contexts[url] = fetched.body;
        }
        reports.set(audience, { credential, report: await runDppvalidator(credential, contexts) });
      }
    }, 600_000);

    for (const audience of AUDIENCES) {
      clause(
        `variant-${audience}`,
        `the ${audience} variant passes dppvalidator (CLI; schema, model, semantic and JSON-LD layers)`,
        async (context) => {
          const { report } = reports.get(audience)!;
          assert.equal(report.cli.exitCode, 0, JSON.stringify(report.cli.result.errors).slice(0, 500));
          assert.equal(report.cli.result.valid, true);
          const warnings: string[] = [];
          for (const layer of ['schema', 'model', 'semantic', 'jsonld'] as const) {
            const verdict = report.layers[layer];
            assert.equal(verdict.crashed, undefined, `${layer} crashed: ${verdict.crashed}`);
            assert.deepEqual(
              verdict.errors ?? [],
              [],
              `${layer}: ${JSON.stringify(verdict.errors).slice(0, 500)}`,
            );
            assert.equal(verdict.valid, true, layer);
            for (const warning of verdict.warnings ?? []) warnings.push(warning.code);
          }
          const codes = [...new Set(warnings)].join(', ');
          await context.annotate(
            warnings.length === 0 ? 'no warnings' : `${warnings.length} warnings (${codes})`,
            'conformance',
          );
        },
      );
    }
    clause('variants-differ', 'each audience’s variant holds a different cut of the battery data', () => {
      const cuts = AUDIENCES.map((audience) =>
        JSON.stringify(reports.get(audience)!.credential.credentialSubject.productGroupData),
      );
      assert.equal(new Set(cuts).size, AUDIENCES.length);
    });
  },
);
