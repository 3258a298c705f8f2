import assert from 'node:assert/strict';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, test } from 'vitest';
import { CONSOLE_ROOT, consoleSourceHash, ensureConsoleBuilt } from '../../scripts/console-build.ts';

const copies: string[] = [];
afterAll(async () => {
  for (const dir of copies) await rm(dir, { recursive: true, force: true });
});

test('the console is rebuilt only when its sources change: an unchanged tree costs a hash, not a build', async () => {
  // The global setup built it for this run; asking again finds the build current.
  const again = await ensureConsoleBuilt();
  assert.equal(again.built, false);
  assert.ok(again.ms < 1_000, `checking took ${again.ms} ms`);
  const stamp = (await readFile(join(again.dist, '.source-hash'), 'utf8')).trim();
  assert.equal(stamp, await consoleSourceHash());
  const index = await readFile(join(again.dist, 'index.html'), 'utf8');
  assert.match(index, /src="\/console\/assets\/index-[\w-]+\.js"/);
});

test('the hash follows every source file and ignores the build output', async () => {
  const copy = await mkdtemp(join(tmpdir(), 'dpp-console-src-'));
  copies.push(copy);
  const root = `${copy}/`;
  await cp(CONSOLE_ROOT, root, { recursive: true, filter: (source) => !source.includes('/dist') });
  const lockfile = join(copy, 'lock.json');
  await writeFile(lockfile, '{}');
  const before = await consoleSourceHash(root, lockfile);
  assert.equal(await consoleSourceHash(root, lockfile), before, 'stable');
  await mkdir(join(root, 'dist', 'assets'), { recursive: true });
  await writeFile(join(root, 'dist', 'assets', 'index-abc.js'), 'built');
  assert.equal(await consoleSourceHash(root, lockfile), before, 'console/dist is not a source');
  await writeFile(
    join(root, 'src', 'styles.css'),
    `${await readFile(join(root, 'src', 'styles.css'), 'utf8')}\n`,
  );
  const edited = await consoleSourceHash(root, lockfile);
  assert.notEqual(edited, before, 'an edited source changes the hash');
  await writeFile(lockfile, '{"react":"other"}');
  assert.notEqual(
    await consoleSourceHash(root, lockfile),
    edited,
    'another React or Vite version changes it',
  );
});
