import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleWorkflowCode, DefaultLogger, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { adminQuery, withDatabase } from '../../src/platform/db/admin.ts';
import { migrate, openOrm } from '../../src/platform/db/orm.ts';
import { workflowInterceptorModules } from '../../src/platform/observability/worker-observability.ts';
import { workflowsPath } from '../../worker/worker.ts';

/**
 * What every test file used to build for itself, built once per run by the global setup: the workflow bundles
 * (about 3 s of CPU each) and a migrated template database (each file's database is a copy of it). On a 2-core
 * CI machine with some 150 files that start a stack, doing it per file cost minutes.
 * Files find them through TEST_WORKFLOW_BUNDLES (a directory) and TEST_DATABASE_TEMPLATE (a database name on the
 * server TEST_DATABASE_TEMPLATE_SERVER);
 * without them (a file run outside the global setup) each file builds its own as before.
 */
export type BundleKind = 'production' | 'plain';

function bundle(kind: BundleKind): Promise<WorkflowBundleWithSourceMap> {
  return bundleWorkflowCode({
    workflowsPath,
    // The production worker's bundle carries the OpenTelemetry interceptors; the workflow tests' stub harness not.
    ...(kind === 'production' ? { workflowInterceptorModules } : {}),
    logger: new DefaultLogger('WARN'),
  });
}

const loaded = new Map<BundleKind, Promise<WorkflowBundleWithSourceMap>>();

/** The workflow code bundled for this run (read from the global setup's directory, else bundled here once). */
export function workflowBundle(kind: BundleKind): Promise<WorkflowBundleWithSourceMap> {
  let found = loaded.get(kind);
  if (!found) {
    const dir = process.env.TEST_WORKFLOW_BUNDLES;
    found = dir
      ? Promise.all([
          readFile(join(dir, `${kind}.js`), 'utf8'),
          readFile(join(dir, `${kind}.js.map`), 'utf8'),
        ]).then(([code, sourceMap]) => ({ code, sourceMap }))
      : bundle(kind);
    loaded.set(kind, found);
  }
  return found;
}

/** Bundles both kinds into a fresh directory; returns it and how to remove it. */
export async function prebuildWorkflowBundles(): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'dpp-test-bundles-'));
  for (const kind of ['production', 'plain'] as const) {
    const { code, sourceMap } = await bundle(kind);
    await writeFile(join(dir, `${kind}.js`), code);
    await writeFile(join(dir, `${kind}.js.map`), sourceMap);
  }
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** A migrated database on the test server that test files copy (CREATE DATABASE … TEMPLATE). */
export async function prebuildTemplateDatabase(
  adminUrl: string,
): Promise<{ name: string; remove(): Promise<void> }> {
  const name = `dpp_template_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  await adminQuery(adminUrl, `create database ${name}`);
  const orm = await openOrm(withDatabase(adminUrl, name), 2);
  try {
    await migrate(orm);
  } finally {
    await orm.close(true);
  }
  return {
    name,
    remove: () => adminQuery(adminUrl, `drop database if exists ${name} with (force)`).then(() => {}),
  };
}
