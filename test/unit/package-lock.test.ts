import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'vitest';

interface LockEntry {
  version?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

const read = (file: string) => JSON.parse(readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8'));
const lock = read('package-lock.json') as { packages: Record<string, LockEntry> };
const manifest = read('package.json') as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

/** Where Node (and npm) would find `name` from the package installed at `path`: its own, then its parents'. */
function resolveInLock(path: string, name: string): string | undefined {
  let base = path;
  for (;;) {
    const candidate = `${base ? `${base}/` : ''}node_modules/${name}`;
    if (lock.packages[candidate]) return candidate;
    if (!base) return undefined;
    const parent = base.lastIndexOf('/node_modules/');
    base = parent < 0 ? '' : base.slice(0, parent);
  }
}

test('the lock names every dependency of every locked package, other platforms’ binaries included', () => {
  // `npm ci` refuses a lock with such a gap ("Missing: @biomejs/cli-darwin-arm64@… from lock file"), even
  // for packages it would never install on this platform. `npm install` writes one when the registry
  // cannot serve an optional package at the time. Regenerate with `npm install --package-lock-only`.
  const missing: string[] = [];
  for (const [path, entry] of Object.entries(lock.packages)) {
    const declared = {
      ...entry.dependencies,
      ...entry.optionalDependencies,
      ...(path === '' ? entry.devDependencies : {}),
    };
    for (const name of Object.keys(declared)) {
      if (!resolveInLock(path, name)) missing.push(`${path || '(root)'} → ${name}`);
    }
  }
  assert.deepEqual(missing, []);
});

test('every direct dependency is pinned to one exact version, the one the lock holds', () => {
  const loose: string[] = [];
  for (const [name, range] of Object.entries({ ...manifest.dependencies, ...manifest.devDependencies })) {
    const locked = lock.packages[`node_modules/${name}`]?.version;
    if (!/^\d+\.\d+\.\d+(-[\w.]+)?$/.test(range) || locked !== range) {
      loose.push(`${name}: package.json ${range}, lock ${locked}`);
    }
  }
  assert.deepEqual(loose, []);
});
