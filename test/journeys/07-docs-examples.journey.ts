import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'vitest';
import { stack } from './client.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The page's shell blocks, in order, but the one marked `# setup` (whose values the runner gives). */
async function shellBlocks(page: string): Promise<string[]> {
  const text = await readFile(new URL(`../../docs/${page}`, import.meta.url), 'utf8');
  return [...text.matchAll(/```sh\n([\s\S]*?)```/g)]
    .map((m) => m[1]!)
    .filter((block) => !block.startsWith('# setup'));
}

function bash(script: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', script], { cwd: ROOT, env: { ...process.env, ...env } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('exit', (code) => resolve({ code, output }));
  });
}

/** The order getting-started.md gives: each page's Try it continues that terminal. */
const PAGES = [
  'getting-started.md',
  'minting.md',
  'erp-and-factory.md',
  'supply-chain.md',
  'webhooks.md',
  'identity.md',
  'billing.md',
  'compliance.md',
  'resale.md',
  'recycling-and-aas.md',
  'granularity.md',
  'evidence.md',
  'backup.md',
  'exit.md',
  'registry.md',
  'signals.md',
];

// A newcomer pastes the docs' examples into a terminal while npm start runs: each must work as written.
describe('the docs’ examples work as written', () => {
  test('getting-started.md, then every page’s Try it, block by block in one shell', async () => {
    const blocks: { page: string; block: string }[] = [];
    for (const page of PAGES) {
      const found = await shellBlocks(page);
      assert.ok(found.length > 0, `${page} has examples`);
      blocks.push(...found.map((block) => ({ page, block })));
    }
    const script = [
      'set -euo pipefail',
      ...blocks.flatMap(({ page, block }, i) => [
        `echo "== ${page} block ${i + 1}"`,
        block,
        `echo "== block ${i + 1} done"`,
      ]),
    ].join('\n');
    const { code, output } = await bash(script, {
      DPP: stack().baseUrl,
      KEY: stack().demoKey,
      WHSEC: stack().stripeWebhookSecret,
      UI: stack().temporalUiUrl,
      MAIL_DIR: stack().mailDir,
      PORT: new URL(stack().baseUrl).port,
      CHAIN: stack().chainRpc,
      // The operator CLI of backup.md's Try it, on this stack's database (as a terminal beside npm start).
      DATABASE_URL: stack().databaseUrl,
    });
    await writeFile(join(stack().dataDir, 'docs-examples.log'), output);
    assert.equal(code, 0, output.slice(-4000));
    for (let i = 1; i <= blocks.length; i++) assert.match(output, new RegExp(`== block ${i} done`));
    assert.match(output, /^passport \d+$/m, 'the mint printed its token id');
    assert.match(
      output,
      /^307 → http\S+\/test\/verify\/01\/04012345000016\/21\/\d+\?tap=/m,
      'the tap redirects',
    );
    assert.match(output, /"RECYCLED"/);
    assert.match(output, /"mint:test:04[0-9A-F]{12}"/, 'the workflows, found by token');
    assert.match(output, /"outcome": "applied"/, 'the signed payment event was applied');
    assert.match(output, /^"CLAIMED"$/m, 'the buyer claimed the passport');
    assert.match(output, /^VERIFIED/m, 'the evidence bundle verified against the chain');
    assert.match(output, /^FAIL +version 1 hash: /m, 'the edited bundle failed');
    assert.match(output, /^every file matches the manifest$/m, 'the exit bundle matches its manifest');
    assert.match(output, /^the credential, byte for byte$/m, 'the exported credential is the served one');
    assert.match(output, /: 0 rows inserted, \d+ already there/, 'a second import changes nothing');
    assert.match(output, /^\{"status":"accepted","version":\d+\}$/m, 'the receiver accepted the transfer');
  });
});
