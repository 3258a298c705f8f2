import { createHash } from 'node:crypto';
import { readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Builds the web console (console/, React + Vite) into console/dist when its sources changed: a SHA-256 of every
 * source file (and of package-lock.json, which pins React and Vite) is kept in console/dist/.source-hash, so an
 * unchanged console costs a hash of a few files. Used by npm start, the test suite's global setup, the
 * container image and `npm run console:build`.
 */
export const CONSOLE_ROOT = fileURLToPath(new URL('../console/', import.meta.url));
const LOCKFILE = fileURLToPath(new URL('../package-lock.json', import.meta.url));
const DIST = join(CONSOLE_ROOT, 'dist');
const STAMP = '.source-hash';
const SKIP = new Set(['dist', 'node_modules']);

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const files: string[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (SKIP.has(entry.name) || entry.name.startsWith('dist.') || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...(await sourceFiles(path)));
    else if (entry.isFile()) files.push(path);
  }
  return files;
}

/** SHA-256 over the console's source files (path and content, in a fixed order) and the lockfile. */
export async function consoleSourceHash(root = CONSOLE_ROOT, lockfile = LOCKFILE): Promise<string> {
  const hash = createHash('sha256');
  for (const file of await sourceFiles(root)) {
    hash
      .update(file.slice(root.length))
      .update('\0')
      .update(await readFile(file))
      .update('\0');
  }
  hash.update(await readFile(lockfile));
  return hash.digest('hex');
}

export interface ConsoleBuild {
  built: boolean;
  ms: number;
  dist: string;
}

/** Builds unless console/dist already holds the build of the current sources. */
export async function ensureConsoleBuilt(log: (line: string) => void = () => {}): Promise<ConsoleBuild> {
  const started = Date.now();
  const hash = await consoleSourceHash();
  const current = await readFile(join(DIST, STAMP), 'utf8').catch(() => '');
  if (current.trim() === hash) return { built: false, ms: Date.now() - started, dist: DIST };
  log('console: building the web console (console/ changed)…');
  // Built beside dist and moved into place, so a server reading dist never sees half a build.
  const staging = join(CONSOLE_ROOT, `dist.${process.pid}.${Date.now()}`);
  const { build } = await import('vite');
  try {
    await build({
      configFile: join(CONSOLE_ROOT, 'vite.config.ts'),
      root: CONSOLE_ROOT,
      logLevel: 'warn',
      build: { outDir: staging, emptyOutDir: true },
    });
    await writeFile(join(staging, STAMP), `${hash}\n`);
    await rm(DIST, { recursive: true, force: true });
    await rename(staging, DIST).catch(async (error: NodeJS.ErrnoException) => {
      // Another process put the same build in place meanwhile.
      if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
    });
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  const ms = Date.now() - started;
  log(`console: built in ${(ms / 1000).toFixed(1)} s`);
  return { built: true, ms, dist: DIST };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await ensureConsoleBuilt((line) => console.log(line));
  if (!result.built) console.log(`console: up to date (${result.dist})`);
}
