import { stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

/**
 * PostgreSQL refuses to run as root, so under root the embedded server runs as the system user `postgres`.
 * That user must be able to pass through every directory above the binaries and the data directory; a clone
 * under /root (mode 0700) is not reachable, and the server then fails with a bare EACCES from spawn.
 * Returns the first directory above `path` that others cannot enter, or undefined when the path is reachable.
 */
export async function unreachableForOthers(path: string): Promise<string | undefined> {
  const blocking: string[] = [];
  let current = dirname(resolve(path));
  for (;;) {
    const info = await stat(current).catch(() => undefined);
    if (info && (info.mode & 0o001) === 0) blocking.push(current);
    const parent = dirname(current);
    if (parent === current) break;
    current = parent;
  }
  return blocking.at(-1);
}
