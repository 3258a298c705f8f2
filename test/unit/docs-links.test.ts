import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

test('every relative link in the README and docs/ names a file that exists', () => {
  const pages = ['README.md', ...readdirSync(join(ROOT, 'docs')).map((name) => `docs/${name}`)].filter((p) =>
    p.endsWith('.md'),
  );
  const broken: string[] = [];
  for (const page of pages) {
    const text = readFileSync(join(ROOT, page), 'utf8');
    for (const [, target] of text.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)) {
      if (/^[a-z]+:/i.test(target!)) continue;
      if (!existsSync(join(ROOT, dirname(page), target!))) broken.push(`${page} → ${target}`);
    }
  }
  assert.deepEqual(broken, []);
});
