// dppvalidator (PyPI, artiso-ai) run on a credential: its CLI as published, and every layer of its engine.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildInto, runTool, TOOL_CACHE } from '../../../scripts/dev/tool-cache.ts';

export const DPPVALIDATOR_VERSION = '0.5.1';

const HOME = join(TOOL_CACHE, `dppvalidator-${DPPVALIDATOR_VERSION}`);
const LAYERS_SCRIPT = fileURLToPath(new URL('./dppvalidator_layers.py', import.meta.url));
const UNTP_CONTEXT_URL = 'https://vocabulary.uncefact.org/untp/0.7.0/context/';
const UNTP_CONTEXT = fileURLToPath(
  new URL('../../../src/standards/credentials/contexts/untp-0.7.0.jsonld', import.meta.url),
);

export interface DppvalidatorIssue {
  code: string;
  path: string;
  message: string;
  severity: string;
  layer: string;
}

export interface LayerVerdict {
  valid: boolean;
  errors?: DppvalidatorIssue[];
  warnings?: DppvalidatorIssue[];
  /** The layer raised instead of reporting (a defect of the tool; see the notes of the caller). */
  crashed?: string;
  signatureValid?: boolean | null;
  issuerDid?: string | null;
}

export interface DppvalidatorReport {
  /** `dppvalidator validate FILE --format json`: its exit code (0 valid) and its JSON answer. */
  cli: {
    exitCode: number;
    result: { valid: boolean; errors: DppvalidatorIssue[]; warnings: DppvalidatorIssue[] };
  };
  /** Each of the engine's layers on its own: schema, model, semantic, jsonld, vocabulary, signature. */
  layers: Record<'schema' | 'model' | 'semantic' | 'jsonld' | 'vocabulary' | 'signature', LayerVerdict>;
}

/** Installs dppvalidator from PyPI into `.cache/dppvalidator-<version>` (once; `pip install --target`). */
export async function obtainDppvalidator(): Promise<string> {
  if (!existsSync(join(HOME, 'dppvalidator', '__init__.py'))) {
    await buildInto(HOME, (staging) =>
      runTool('python3', [
        '-m',
        'pip',
        'install',
        '--quiet',
        '--disable-pip-version-check',
        '--target',
        staging,
        `dppvalidator==${DPPVALIDATOR_VERSION}`,
      ]),
    );
  }
  return HOME;
}

function run(args: string[], home: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('python3', args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, PYTHONPATH: home, PYTHONDONTWRITEBYTECODE: '1' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4000);
    });
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/**
 * Runs dppvalidator on a credential (a parsed JSON document): the CLI, then each layer of the engine.
 * The JSON-LD layer is given, without fetching, the UNTP 0.7.0 context (dppvalidator 0.5.1 names it in its
 * MANIFEST.json, but its wheel lacks the file, so the layer would fetch vocabulary.uncefact.org and fail
 * offline) and `contexts` (URL → document: the issuer's own contexts, as a verifier that fetched them has them).
 */
export async function runDppvalidator(
  credential: unknown,
  contexts: Record<string, unknown> = {},
): Promise<DppvalidatorReport> {
  const home = await obtainDppvalidator();
  const dir = await mkdtemp(join(tmpdir(), 'dppvalidator-'));
  try {
    const file = join(dir, 'credential.json');
    await writeFile(file, JSON.stringify(credential, null, 2));
    const known: Record<string, unknown> = {
      [UNTP_CONTEXT_URL]: JSON.parse(await readFile(UNTP_CONTEXT, 'utf8')),
      ...contexts,
    };
    const contextArgs: string[] = [];
    for (const [i, [url, document]] of Object.entries(known).entries()) {
      const contextFile = join(dir, `context-${i}.jsonld`);
      await writeFile(contextFile, JSON.stringify(document));
      contextArgs.push('--context', `${url}=${contextFile}`);
    }
    const cli = await run(
      [
        '-c',
        'import sys; from dppvalidator.cli import cli; sys.exit(cli())',
        'validate',
        file,
        '--format',
        'json',
      ],
      home,
    );
    if (cli.code !== 0 && cli.code !== 1) {
      throw new Error(`dppvalidator validate exited with ${cli.code}: ${cli.stderr || cli.stdout}`);
    }
    const layers = await run([LAYERS_SCRIPT, file, ...contextArgs], home);
    if (layers.code !== 0) throw new Error(`dppvalidator layers: ${layers.stderr || layers.stdout}`);
    return {
      cli: { exitCode: cli.code, result: JSON.parse(cli.stdout) },
      layers: JSON.parse(layers.stdout).layers,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
