import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { runTool, TOOL_CACHE } from './tool-cache.ts';

/**
 * The AAS validators we did not write, from PyPI into `.cache/` (one virtual environment per tool and
 * version, made once and reused): the AAS's official test tooling `aas-test-engines` (metamodel and
 * template checks of a file, API conformance of a server) and `aas-submodel-validate` (`smtv`: submodels
 * against their IDTA templates, offline).
 */
export const AAS_TEST_ENGINES_VERSION = '1.0.3';
export const AAS_SUBMODEL_VALIDATE_VERSION = '1.0.0';

/** The read profiles of IDTA-01002 3.0 our AAS API implements (check_server suites). */
export const AAS_READ_PROFILES = {
  shellRepository:
    'https://admin-shell.io/aas/API/3/0/AssetAdministrationShellRepositoryServiceSpecification/SSP-002',
  submodelRepository: 'https://admin-shell.io/aas/API/3/0/SubmodelRepositoryServiceSpecification/SSP-002',
} as const;

async function pythonTool(pkg: string, version: string, command: string): Promise<string> {
  const venv = join(TOOL_CACHE, `${pkg}-${version}`);
  const bin = join(venv, 'bin', command);
  if (existsSync(bin)) return bin;
  await runTool('python3', ['-m', 'venv', venv]);
  await runTool(join(venv, 'bin', 'pip'), ['install', '--quiet', `${pkg}==${version}`]);
  return bin;
}

/** Installs both tools (once) and returns their commands. */
export async function obtainAasTools(): Promise<{ aasTestEngines: string; smtv: string }> {
  return {
    aasTestEngines: await pythonTool('aas-test-engines', AAS_TEST_ENGINES_VERSION, 'aas_test_engines'),
    smtv: await pythonTool('aas-submodel-validate', AAS_SUBMODEL_VALIDATE_VERSION, 'smtv'),
  };
}

function run(command: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-8000);
    });
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

/** aas-test-engines' result tree (`--output json`): message, level (0 info, 1 warning, 2 error, 3 critical). */
export interface AasTestNode {
  m: string;
  l: 0 | 1 | 2 | 3;
  s: AasTestNode[];
}

export interface AasTestEnginesReport {
  /** The tool's own verdict: exit code 0 (nothing above warning). */
  ok: boolean;
  exitCode: number;
  tree: AasTestNode;
  /** Every node at error or critical level, as `parent › … › message` lines. */
  errors: string[];
  /** Every node at warning level. */
  warnings: string[];
}

function flatten(node: AasTestNode, level: number, trail: string[] = []): string[] {
  const here = [...trail, node.m];
  const own = node.l === level && node.s.every((child) => child.l !== level) ? [here.join(' › ')] : [];
  return [...own, ...node.s.flatMap((child) => flatten(child, level, here))];
}

function report(code: number, stdout: string, stderr: string): AasTestEnginesReport {
  let tree: AasTestNode;
  try {
    tree = JSON.parse(stdout) as AasTestNode;
  } catch {
    throw new Error(
      `aas_test_engines printed no JSON (exit ${code}): ${stderr.trim() || stdout.slice(0, 2000)}`,
    );
  }
  return {
    ok: code === 0,
    exitCode: code,
    tree,
    errors: [...flatten(tree, 2), ...flatten(tree, 3)],
    warnings: flatten(tree, 1),
  };
}

/** `aas_test_engines check_file FILE --format json`: an AAS environment (JSON) against the metamodel. */
export async function checkAasFile(file: string): Promise<AasTestEnginesReport> {
  const { aasTestEngines } = await obtainAasTools();
  const { code, stdout, stderr } = await run(aasTestEngines, [
    'check_file',
    file,
    '--format',
    'json',
    '--output',
    'json',
  ]);
  return report(code, stdout, stderr);
}

/** `aas_test_engines check_server BASE SUITE`: one service profile against a running API (base incl. /api/v3.0). */
export async function checkAasServer(
  baseUrl: string,
  suite: string,
  headers: Record<string, string> = {},
): Promise<AasTestEnginesReport> {
  const { aasTestEngines } = await obtainAasTools();
  const headerArgs = Object.entries(headers).flatMap(([name, value]) => ['--header', `${name}:${value}`]);
  const { code, stdout, stderr } = await run(aasTestEngines, [
    'check_server',
    baseUrl,
    suite,
    '--output',
    'json',
    ...headerArgs,
  ]);
  return report(code, stdout, stderr);
}

/** smtv's JSON report (its docs/report-schema.md): the fields we read. */
export interface SmtvReport {
  ok: boolean;
  exitCode: number;
  summary: { errors: number; warnings: number; submodelsSeen: number; submodelsJudged: number };
  findings: {
    rule: string;
    kind: string;
    severity: string;
    message: string;
    subject: string;
    [key: string]: unknown;
  }[];
}

/** `smtv -f json PATH`: the submodels of an AAS environment (or one Submodel) against their IDTA templates. */
export async function checkSubmodelTemplates(
  file: string,
  options: { warningsAsErrors?: boolean } = {},
): Promise<SmtvReport> {
  const { smtv } = await obtainAasTools();
  const { code, stdout, stderr } = await run(smtv, [
    '-f',
    'json',
    ...(options.warningsAsErrors ? ['-W'] : []),
    file,
  ]);
  let parsed: Omit<SmtvReport, 'exitCode'>;
  try {
    parsed = JSON.parse(stdout);
  } catch {
    throw new Error(`smtv printed no JSON (exit ${code}): ${stderr.trim() || stdout.slice(0, 2000)}`);
  }
  return { ...parsed, ok: code === 0, exitCode: code };
}
