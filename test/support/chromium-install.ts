import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { CHROMIUM_PATH } from './browser.ts';

/**
 * The browser tests need Debian's Chromium. On a fresh machine where we are root with apt (CI's machines),
 * install it once; elsewhere say how. Returns a line for the test log.
 */
export async function ensureChromium(): Promise<string> {
  if (existsSync(CHROMIUM_PATH)) return `tests: Chromium ${CHROMIUM_PATH}`;
  if (process.getuid?.() !== 0 || !existsSync('/usr/bin/apt-get')) {
    return `tests: no Chromium at ${CHROMIUM_PATH}; browser tests will fail (apt-get install -y chromium, or CHROMIUM_PATH)`;
  }
  const started = Date.now();
  const install = () => run('apt-get', ['install', '-y', '--no-install-recommends', 'chromium']);
  if (!(await install())) {
    await run('apt-get', ['update']);
    if (!(await install())) return 'tests: installing chromium with apt-get failed; browser tests will fail';
  }
  return `tests: installed Debian's chromium with apt-get in ${((Date.now() - started) / 1000).toFixed(0)} s`;
}

function run(command: string, args: string[]): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      stdio: 'ignore',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    child.once('error', () => resolve(false));
    child.once('exit', (code) => resolve(code === 0));
  });
}
