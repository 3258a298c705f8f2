import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { test } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** The project modules a file loads when run (type-only imports are erased, so they do not count). */
function runtimeImports(file: string): string[] {
  const source = ts.createSourceFile(
    file,
    readFileSync(join(ROOT, file), 'utf8'),
    ts.ScriptTarget.Latest,
    true,
  );
  const found: string[] = [];
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || statement.importClause?.isTypeOnly) continue;
    const specifier = (statement.moduleSpecifier as ts.StringLiteral).text;
    if (specifier.startsWith('.')) found.push(relative(ROOT, resolve(dirname(join(ROOT, file)), specifier)));
  }
  return found;
}

// docs/evidence.md: the verifier runs with only the bundle and a chain node.
test('the evidence verifier loads nothing of the database, the configuration, the runtime or the adapters', () => {
  const loaded = new Set<string>();
  const queue = ['src/passport/evidence/verify-file.ts'];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (loaded.has(file)) continue;
    loaded.add(file);
    queue.push(...runtimeImports(file));
  }
  const forbidden = [...loaded].filter((file) =>
    /^src\/(platform|adapters|accounts|webhooks|lifecycle)\//.test(file),
  );
  assert.deepEqual(forbidden, []);
  assert.ok(loaded.has('src/passport/evidence/verify-anchors.ts'));
});
