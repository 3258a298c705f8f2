import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildInto, goInstall, isExecutable, runTool, TOOL_CACHE } from '../../scripts/dev/tool-cache.ts';

/**
 * The deployment checks' tools, built from published sources into `.cache/` on first use:
 * - kubeconform (Kubernetes manifest validator) from its Go module, `go install …@KUBECONFORM_VERSION`;
 * - Kubernetes JSON schemas from the kubernetes-validate wheel on PyPI (schemas for 1.25–1.37 generated from
 *   the Kubernetes OpenAPI documents), extracted for one version by kubernetes-schemas.py;
 * - manifest-tool (./manifest-tool): compose-go, the library `docker compose` loads files with, and a YAML reader.
 */
export const KUBECONFORM_VERSION = 'v0.8.0';
export const KUBERNETES_VALIDATE_VERSION = '1.37.0';
/** The Kubernetes versions the manifests are checked against: the oldest minor version we support, the newest. */
export const KUBERNETES_VERSIONS = ['v1.34.0', 'v1.37.0'];

export async function obtainKubeconform(): Promise<string> {
  const dir = join(TOOL_CACHE, `kubeconform-${KUBECONFORM_VERSION}`);
  const bin = join(dir, 'kubeconform');
  if (await isExecutable(bin)) return bin;
  await buildInto(dir, (staging) =>
    goInstall(staging, `github.com/yannh/kubeconform/cmd/kubeconform@${KUBECONFORM_VERSION}`),
  );
  return bin;
}

/** The directory holding `{version}-local-strict/{kind}-{group}-{version}.json`. */
export async function obtainKubernetesSchemas(): Promise<string> {
  const dir = join(
    TOOL_CACHE,
    `kubernetes-validate-${KUBERNETES_VALIDATE_VERSION}-schemas-${KUBERNETES_VERSIONS.join('-')}`,
  );
  const present = await Promise.all(
    KUBERNETES_VERSIONS.map((version) => readdir(join(dir, `${version}-local-strict`)).catch(() => [])),
  );
  if (present.every((files) => files.length > 0)) return dir;
  await buildInto(dir, async (staging) => {
    const wheels = join(staging, 'wheel');
    await runTool('python3', [
      '-m',
      'pip',
      'download',
      '--quiet',
      '--disable-pip-version-check',
      '--no-deps',
      '--only-binary=:all:',
      '--dest',
      wheels,
      `kubernetes-validate==${KUBERNETES_VALIDATE_VERSION}`,
    ]);
    const [wheel] = (await readdir(wheels)).filter((name) => name.endsWith('.whl'));
    if (!wheel) throw new Error('pip downloaded no kubernetes-validate wheel');
    const script = fileURLToPath(new URL('./kubernetes-schemas.py', import.meta.url));
    for (const version of KUBERNETES_VERSIONS)
      await runTool('python3', [script, join(wheels, wheel), version, staging]);
    await runTool('rm', ['-rf', wheels]);
  });
  return dir;
}

const MANIFEST_TOOL = fileURLToPath(new URL('./manifest-tool/', import.meta.url));

/** Built once per version of its sources (main.go, go.mod, go.sum). */
export async function obtainManifestTool(): Promise<string> {
  const hash = createHash('sha256');
  for (const file of ['main.go', 'go.mod', 'go.sum']) hash.update(await readFile(join(MANIFEST_TOOL, file)));
  const dir = join(TOOL_CACHE, `manifest-tool-${hash.digest('hex').slice(0, 12)}`);
  const bin = join(dir, 'manifest-tool');
  if (await isExecutable(bin)) return bin;
  await buildInto(dir, (staging) =>
    runTool('go', ['-C', MANIFEST_TOOL, 'build', '-o', join(staging, 'manifest-tool'), '.'], {
      ...process.env,
      GOFLAGS: '-buildvcs=false -mod=readonly',
    }),
  );
  return bin;
}

/** Runs a tool and returns its exit code, standard output and standard error (a non-zero exit is an answer). */
export function runCapture(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}
