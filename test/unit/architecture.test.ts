import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, test } from 'vitest';

// The layout rules of docs/architecture.md, read from the code's own imports.
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MAX_ROOMS = 12;
const MAX_LINES = 400;
const README_MAX_LINES = 150;

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) return [];
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every relative module a file names: imports and exports (type-only ones too), import() and import types. */
function relativeImports(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    let specifier: ts.Node | undefined;
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      specifier = node.moduleSpecifier;
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      specifier = node.arguments[0];
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      specifier = node.argument.literal;
    }
    if (specifier && ts.isStringLiteralLike(specifier) && specifier.text.startsWith('.')) {
      found.push(relative(ROOT, resolve(dirname(join(ROOT, file)), specifier.text)));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const rooms = readdirSync(join(ROOT, 'src'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();
const roomOf = (path: string) => (path.startsWith('src/') ? path.split('/')[1] : undefined);
const srcFiles = sourceFiles('src');

/** room → rooms it imports, each with one import that shows it. */
function roomGraph(): Map<string, Map<string, string>> {
  const graph = new Map(rooms.map((room) => [room, new Map<string, string>()]));
  for (const file of srcFiles) {
    const from = roomOf(file)!;
    for (const target of relativeImports(file)) {
      const to = roomOf(target);
      if (to && to !== from && !graph.get(from)!.has(to)) graph.get(from)!.set(to, `${file} → ${target}`);
    }
  }
  return graph;
}

/** A cycle among the rooms as the imports that close it, or undefined. */
function findCycle(graph: Map<string, Map<string, string>>): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (room: string): string[] | undefined => {
    state.set(room, 'open');
    path.push(room);
    for (const next of graph.get(room)?.keys() ?? []) {
      if (state.get(next) === 'open') {
        const loop = [...path.slice(path.indexOf(next)), next];
        return loop.slice(1).map((to, i) => graph.get(loop[i]!)!.get(to)!);
      }
      if (!state.has(next)) {
        const found = visit(next);
        if (found) return found;
      }
    }
    path.pop();
    state.set(room, 'done');
    return undefined;
  };
  for (const room of rooms) {
    if (!state.has(room)) {
      const found = visit(room);
      if (found) return found;
    }
  }
  return undefined;
}

describe('the layout of src/', () => {
  test(`at most ${MAX_ROOMS} rooms, and no loose files beside them`, () => {
    assert.ok(rooms.length <= MAX_ROOMS, `src/ has ${rooms.length} rooms: ${rooms.join(', ')}`);
    const loose = readdirSync(join(ROOT, 'src')).filter((name) => statSync(join(ROOT, 'src', name)).isFile());
    assert.deepEqual(loose, []);
  });

  test('the rooms import each other without a cycle (type imports included)', () => {
    assert.deepEqual(findCycle(roomGraph()), undefined);
  });

  test('src/ never imports an entry layer (api, worker, workflows, activities, scripts, test)', () => {
    const upward = srcFiles.flatMap((file) =>
      relativeImports(file)
        .filter((target) => !target.startsWith('src/'))
        .map((target) => `${file} → ${target}`),
    );
    assert.deepEqual(upward, []);
  });

  test('workflows/ take from src/ only the contract types of src/processes/', () => {
    const outside = sourceFiles('workflows').flatMap((file) =>
      relativeImports(file)
        .filter((target) => target.startsWith('src/') && !target.startsWith('src/processes/'))
        .map((target) => `${file} → ${target}`),
    );
    assert.deepEqual(outside, []);
  });

  test(`no TypeScript file over ${MAX_LINES} lines`, () => {
    const dirs = [
      'src',
      'api',
      'activities',
      'workflows',
      'worker',
      'scripts',
      'bench',
      'test',
      'console/src',
    ];
    const long = dirs
      .flatMap(sourceFiles)
      .map((file) => ({ file, lines: readFileSync(join(ROOT, file), 'utf8').split('\n').length - 1 }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ file, lines }) => `${file}: ${lines}`);
    assert.deepEqual(long, []);
  });
});

describe('the README', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const lines = readme.split('\n');

  test(`at most ${README_MAX_LINES} lines, the two commands in its first 30`, () => {
    assert.ok(lines.length <= README_MAX_LINES, `README.md has ${lines.length} lines`);
    const head = lines.slice(0, 30).join('\n');
    assert.match(head, /npm ci && npm start/);
    assert.match(head, /^npm test\b/m);
  });

  test('its map of src/ names every room once, and only rooms that exist', () => {
    const mapped = [...readme.matchAll(/^- `src\/([a-z-]+)\/`/gm)].map((match) => match[1]!);
    assert.deepEqual([...mapped].sort(), rooms);
  });

  test('it links only inside the repository', () => {
    const targets = [...readme.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!);
    const outside = targets.filter((target) => /^[a-z]+:/i.test(target) || target.startsWith('..'));
    assert.deepEqual(outside, []);
    assert.doesNotMatch(readme, /\.\.\//, 'a path above the repository, which a clone does not have');
  });
});
