import { ensureConsoleBuilt } from '../../scripts/console-build.ts';
import { obtainStripeMock, startStripeMock } from '../../scripts/dev/stripe-mock.ts';
import { obtainTemporalCli, obtainTemporalTestServer } from '../../scripts/dev/temporal-binaries.ts';
import { resolveTestDatabaseServer } from '../../scripts/test-database.ts';
import { ensureChromium } from './chromium-install.ts';
import { prebuildTemplateDatabase, prebuildWorkflowBundles } from './prebuilt.ts';

/**
 * Once per run, before any test file:
 * - the PostgreSQL server every file creates its own database on (scripts/test-database.ts says which);
 * - the official Temporal servers (scripts/dev/temporal-binaries.ts: cached, downloaded or built once);
 * - Debian's Chromium for the browser tests;
 * - stripe-mock (stateless, so one serves every file);
 * - the web console's build (scripts/console-build.ts: only when console/ changed, about 2 s);
 * - the workflow bundles and a migrated template database (test/support/prebuilt.ts).
 * Test files read them from TEST_DATABASE_URL, TEMPORAL_CLI_PATH, TEMPORAL_TEST_SERVER_PATH, STRIPE_API_BASE,
 * TEST_WORKFLOW_BUNDLES and TEST_DATABASE_TEMPLATE.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const log = (line: string) => console.log(line);
  const [database, cli, testServer, chromium, stripeMock, , bundles] = await Promise.all([
    resolveTestDatabaseServer(log),
    process.env.TEMPORAL_ADDRESS ? undefined : obtainTemporalCli({ log }),
    process.env.TEMPORAL_ADDRESS ? undefined : obtainTemporalTestServer({ log }),
    ensureChromium(),
    obtainStripeMock(log).then((path) => startStripeMock(path)),
    // Its result is not needed here; the build lands in console/dist, where the API serves it from.
    ensureConsoleBuilt(log),
    prebuildWorkflowBundles(),
  ]);
  const template = await prebuildTemplateDatabase(database.adminUrl);
  process.env.TEST_WORKFLOW_BUNDLES = bundles.dir;
  process.env.TEST_DATABASE_TEMPLATE = template.name;
  process.env.TEST_DATABASE_TEMPLATE_SERVER = database.adminUrl;
  log(chromium);
  process.env.STRIPE_API_BASE = stripeMock.url;
  process.env.TEST_DATABASE_URL = database.adminUrl;
  if (cli && testServer) {
    process.env.TEMPORAL_CLI_PATH = cli.path;
    process.env.TEMPORAL_TEST_SERVER_PATH = testServer.path;
    log(`tests: Temporal CLI ${cli.path} (${cli.how}), test server ${testServer.path} (${testServer.how})`);
  } else {
    log(`tests: Temporal at TEMPORAL_ADDRESS=${process.env.TEMPORAL_ADDRESS} (no time skipping)`);
  }
  return async () => {
    await stripeMock.stop();
    await template.remove();
    await bundles.remove();
    await database.embedded?.stop();
  };
}
