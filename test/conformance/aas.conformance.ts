import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, type TestContext } from 'vitest';
import {
  AAS_READ_PROFILES,
  AAS_SUBMODEL_VALIDATE_VERSION,
  AAS_TEST_ENGINES_VERSION,
  type AasTestEnginesReport,
  checkAasFile,
  checkAasServer,
  checkSubmodelTemplates,
  obtainAasTools,
} from '../../scripts/dev/aas-tools.ts';
import { http, stack } from '../journeys/client.ts';
import { conformanceBattery } from './support/battery-passport.ts';
import { standard } from './support/clause.ts';
import { conformanceLevels } from './support/levels.ts';
import { type ConformancePassport, conformancePassport } from './support/passport.ts';

// biome-ignore lint/suspicious/noExplicitAny: documents as the service answers them
type Json = any;

/** The AAS API of the test environment (test passports), as docs/recycling-and-aas.md gives its base path. */
const aasBase = () => `${stack().baseUrl}/test/api/v3.0`;
const base64url = (text: string) => Buffer.from(text).toString('base64url');

/** No error or critical finding; its warnings (things the profile may have and we do not) go in the matrix. */
async function clean(context: TestContext, report: AasTestEnginesReport) {
  assert.ok(report.ok && report.errors.length === 0, report.errors.slice(0, 5).join('\n'));
  const warnings = report.warnings.length;
  const shown = report.warnings.slice(0, 3).map((w) => w.split(' › ').slice(-2).join(' › ').slice(0, 120));
  await context.annotate(
    warnings === 0 ? 'no warnings' : `${warnings} warnings, e.g. ${shown.join(' / ')}`,
    'conformance',
  );
}

/** The passport's shell, found as an AAS client finds it: by its asset id among the listed shells. */
async function shellOf(passport: ConformancePassport): Promise<Json> {
  let cursor: string | undefined;
  for (let page = 0; page < 50; page++) {
    const query = cursor ? `?cursor=${encodeURIComponent(cursor)}` : '';
    const answer = await http('GET', `${aasBase()}/shells${query}`, { env: null });
    assert.equal(answer.status, 200, answer.text.slice(0, 300));
    const found = answer.body.result.find(
      (shell: Json) => shell.assetInformation?.globalAssetId === passport.digitalLink,
    );
    if (found) return found;
    cursor = answer.body.paging_metadata?.cursor;
    if (!cursor) break;
  }
  throw new Error(`no shell with globalAssetId ${passport.digitalLink}`);
}

standard(
  {
    name: 'AAS Part 2 API 3.0 (IDTA-01002): read profiles',
    checkedWith: `aas-test-engines ${AAS_TEST_ENGINES_VERSION} check_server (PyPI)`,
    reference: 'https://industrialdigitaltwin.org/en/content-hub/aasspecifications',
  },
  (clause) => {
    beforeAll(async () => {
      await obtainAasTools();
      // The profiles' paging checks need two shells in the repository; a battery passport's IDTA-02035
      // submodels (SubmodelElementLists; those the public reads) are among what the profiles judge.
      await conformancePassport(1);
      await conformancePassport(2);
      await conformanceBattery();
    }, 300_000);

    clause(
      'SSP-002 shell repository',
      'AssetAdministrationShellRepositoryServiceSpecification/SSP-002 (read)',
      async (context) => clean(context, await checkAasServer(aasBase(), AAS_READ_PROFILES.shellRepository)),
      300_000,
    );
    clause(
      'SSP-002 submodel repository',
      'SubmodelRepositoryServiceSpecification/SSP-002 (read)',
      async (context) =>
        clean(context, await checkAasServer(aasBase(), AAS_READ_PROFILES.submodelRepository)),
      300_000,
    );
  },
);

standard(
  {
    name: 'AAS Part 1 metamodel 3.0 (IDTA-01001) and IDTA submodel templates',
    checkedWith: `aas-test-engines ${AAS_TEST_ENGINES_VERSION} check_file; aas-submodel-validate ${AAS_SUBMODEL_VALIDATE_VERSION} (smtv) (PyPI)`,
    reference: 'https://industrialdigitaltwin.org/en/content-hub/submodels',
  },
  (clause) => {
    let dir: string;
    let file: string;
    let environment: Json;

    beforeAll(async () => {
      await obtainAasTools();
      const passport = await conformancePassport();
      const shell = await shellOf(passport);
      // The passport's AAS environment as the API exports it (serialization of its shell and submodels).
      const answer = await http('GET', `${aasBase()}/serialization?aasIds=${base64url(shell.id)}`, {
        env: null,
      });
      assert.equal(answer.status, 200, answer.text.slice(0, 300));
      environment = answer.body;
      dir = await mkdtemp(join(tmpdir(), 'conformance-aas-'));
      file = join(dir, 'environment.json');
      await writeFile(file, JSON.stringify(environment));
    }, 300_000);
    afterAll(async () => {
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    clause('metamodel', "the passport's exported environment meets the AAS v3 metamodel", async (context) =>
      clean(context, await checkAasFile(file)),
    );
    clause(
      'idta-templates',
      'submodels that name an IDTA template carry its mandatory elements',
      async () => {
        const report = await checkSubmodelTemplates(file);
        assert.equal(report.ok, true, JSON.stringify(report.findings.slice(0, 5)));
        assert.ok(report.summary.submodelsJudged >= 1, 'at least the Digital Nameplate 3.0 is judged');
      },
    );
    clause('validator-control', 'a nameplate without a mandatory element is refused', async () => {
      const broken = structuredClone(environment);
      const nameplate = broken.submodels.find((s: Json) =>
        /nameplate/i.test(s.semanticId?.keys?.[0]?.value ?? ''),
      );
      assert.ok(nameplate, 'the environment holds a Digital Nameplate');
      nameplate.submodelElements = nameplate.submodelElements.filter(
        (e: Json) => e.idShort !== 'ManufacturerName',
      );
      const brokenFile = join(dir, 'broken.json');
      await writeFile(brokenFile, JSON.stringify(broken));
      const report = await checkSubmodelTemplates(brokenFile);
      assert.equal(report.ok, false, 'smtv refuses a nameplate without ManufacturerName');
    });

    for (const granularity of ['model', 'batch'] as const) {
      clause(
        `${granularity}-metamodel`,
        `a ${granularity} passport's environment (its shell read by id, as format=aas names it) meets the metamodel and the IDTA templates`,
        async (context) => {
          const level = (await conformanceLevels())[granularity];
          const resolved = await http('GET', `${level.path}?format=aas`, { env: null });
          assert.equal(resolved.status, 200, resolved.text.slice(0, 300));
          assert.equal(
            resolved.body.assetInformation.assetKind,
            granularity === 'model' ? 'Type' : 'Instance',
          );
          const answer = await http(
            'GET',
            `${aasBase()}/serialization?aasIds=${base64url(resolved.body.id)}`,
            {
              env: null,
            },
          );
          assert.equal(answer.status, 200, answer.text.slice(0, 300));
          assert.equal(
            answer.body.assetAdministrationShells[0].assetInformation.globalAssetId,
            level.digitalLink,
          );
          const levelFile = join(dir, `${granularity}.json`);
          await writeFile(levelFile, JSON.stringify(answer.body));
          await clean(context, await checkAasFile(levelFile));
          const report = await checkSubmodelTemplates(levelFile);
          assert.equal(report.ok, true, JSON.stringify(report.findings.slice(0, 5)));
          assert.ok(report.summary.submodelsJudged >= 1, 'the Digital Nameplate 3.0 is judged');
        },
      );
    }
  },
);
