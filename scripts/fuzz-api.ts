// Schema fuzzing: schemathesis (from PyPI) against /openapi.json of a started service — every operation, with
// our credentials and environment header; fails on any server error or any answer its documentation does not
// allow (status, content type, headers, body schema).
//   npm run fuzz                    # every operation
//   npm run fuzz -- --max-examples 50
// The service is the test stack (API, worker, official Temporal dev server, anvil, stripe-mock, PostgreSQL)
// with one tenant that owns a minted passport, so operations meet real data as well as generated data.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { prepareBenchDatabase } from '../bench/setup.ts';
import { enrollAndMint } from '../test/support/fixtures/mint.ts';
import { startSmtpReceiver } from '../test/support/smtp-receiver.ts';
import { startTestStack } from '../test/support/stack.ts';
import { obtainStripeMock, startStripeMock } from './dev/stripe-mock.ts';
import { runTool, TOOL_CACHE } from './dev/tool-cache.ts';

const SCHEMATHESIS_VERSION = '4.32.5';

async function obtainSchemathesis(): Promise<string> {
  const venv = join(TOOL_CACHE, `schemathesis-${SCHEMATHESIS_VERSION}`);
  const bin = join(venv, 'bin', 'schemathesis');
  if (existsSync(bin)) return bin;
  console.log(`fuzz: installing schemathesis ${SCHEMATHESIS_VERSION} from PyPI into ${venv} (once)`);
  await runTool('python3', ['-m', 'venv', venv]);
  await runTool(join(venv, 'bin', 'pip'), ['install', '--quiet', `schemathesis==${SCHEMATHESIS_VERSION}`]);
  return bin;
}

const schemathesis = await obtainSchemathesis();
const cleanup = await prepareBenchDatabase();
const stripeMock = await startStripeMock(await obtainStripeMock());
process.env.STRIPE_API_BASE = stripeMock.url;
// Registration mails its confirmation link: a real SMTP receiver takes it.
const smtp = await startSmtpReceiver();
// The rate limit would answer most generated requests 429 and leave the rest of the API untested.
const stack = await startTestStack({
  apiClient: 'native',
  mintWaitMs: 5000,
  apiEnv: { RATE_LIMIT_PER_MINUTE: '0', SMTP_URL: smtp.url },
});
let code = 1;
try {
  const tenant = await stack.api.createTenant('Fuzz Brand');
  const call = (method: string, path: string, body?: unknown) =>
    stack.api.call(method, path, { key: tenant.testKey, ...(body === undefined ? {} : { body }) });
  await enrollAndMint(call, '04F0220000F001');
  const args = [
    'run',
    `${stack.api.baseUrl}/openapi.json`,
    '--url',
    stack.api.baseUrl,
    '--header',
    `Authorization: Bearer ${tenant.testKey}`,
    '--header',
    'x-service-env: test',
    '--checks',
    'not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance',
    '--phases',
    'examples,coverage,fuzzing',
    '--max-examples',
    '15',
    // One worker: hypothesis parses lambda sources with `ast`, whose constructor state CPython 3.11 shares between
    // threads; with several workers a run now and then dies with "AST constructor recursion depth mismatch".
    '--workers',
    '1',
    '--request-timeout',
    '30',
    '--suppress-health-check',
    'all',
    '--no-color',
    ...process.argv.slice(2),
  ];
  code = await new Promise<number>((resolve) => {
    const child = spawn(schemathesis, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    relayWithoutBars(child.stdout, process.stdout);
    relayWithoutBars(child.stderr, process.stderr);
    child.once('close', (exit) => resolve(exit ?? 1));
  });
} finally {
  await stack.close();
  await smtp.close();
  await stripeMock.stop();
  await cleanup();
}
process.exit(code);

/**
 * Schemathesis frames its headings and its closing line in '=' bars the way pytest does
 * ("===== 3 warnings in 41.56s ====="). CI's log readers take such a line for pytest's closing line, and one
 * without a "passed" count for a run that executed no test, so the bars are dropped and the line is prefixed.
 */
function relayWithoutBars(from: NodeJS.ReadableStream, to: NodeJS.WritableStream): void {
  createInterface({ input: from, crlfDelay: Number.POSITIVE_INFINITY }).on('line', (line) => {
    const framed = /^=+ (.+?) =+$/.exec(line);
    to.write(`${framed ? `fuzz: schemathesis ${framed[1]}` : line}\n`);
  });
}
