import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { TestTenant } from '../support/api.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// getting-started.md's `api`, which signals.md's Try it continues.
const PRELUDE = `api() { curl -fsS -H "Authorization: Bearer $KEY" -H 'x-service-env: test' -H 'content-type: application/json' "$@"; }`;

/** docs/signals.md's Try it, as written, on a running stack (the docs-examples journey runs it after the others). */
describe('docs/signals.md Try it', () => {
  let stack: TestStack;
  let tenant: TestTenant;

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await stack.api.createTenant('Try It Signals');
  }, 600_000);
  afterAll(async () => {
    await stack?.close();
  });

  test('a copied link opened five times: the signal in the API and a delivery of the webhook', async () => {
    const page = await readFile(new URL('../../docs/signals.md', import.meta.url), 'utf8');
    const blocks = [...page.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
    assert.equal(blocks.length, 1);
    const output = await new Promise<{ code: number | null; text: string }>((resolve) => {
      const child = spawn('bash', ['-c', ['set -euo pipefail', PRELUDE, ...blocks].join('\n')], {
        cwd: ROOT,
        env: {
          ...process.env,
          DPP: stack.api.baseUrl,
          KEY: tenant.testKey,
          PUBLIC_BASE_URL: stack.api.baseUrl,
        },
      });
      let text = '';
      child.stdout.on('data', (chunk: Buffer) => {
        text += chunk.toString();
      });
      child.stderr.on('data', (chunk: Buffer) => {
        text += chunk.toString();
      });
      child.once('exit', (code) => resolve({ code, text }));
    });
    assert.equal(output.code, 0, output.text);
    assert.match(output.text, /"type": "copied_url_reopened"/);
    assert.match(output.text, /"openings": 5/);
    assert.match(output.text, /"asset\.suspicious_activity"/);
  }, 180_000);
});
