import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TOOL_CACHE } from '../../../scripts/dev/tool-cache.ts';

// The validators' installers live with their runners: the Python tools install themselves from PyPI into
// `.cache/<package>-<version>` on first use (scripts/dev/aas-tools.ts: aas-test-engines, aas-submodel-validate;
// support/dppvalidator.ts: dppvalidator); the npm ones are exact devDependencies, checked here.

/** The version of an npm validator as installed in node_modules (exact devDependencies). */
export function npmVersion(pkg: string): string {
  const manifest = JSON.parse(
    readFileSync(join(TOOL_CACHE, '..', 'node_modules', pkg, 'package.json'), 'utf8'),
  ) as { version: string };
  return manifest.version;
}
