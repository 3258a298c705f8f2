import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres } from '../../src/platform/db/embedded-postgres.ts';
import { unreachableForOthers } from '../../src/platform/db/postgres-user-access.ts';

describe('can the embedded server’s "postgres" user reach a path (it runs as that user under root)', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('names the closed directory above a clone under a 0700 home, and nothing once it opens', async () => {
    const home = await mkdtemp(join(tmpdir(), 'dpp-home-'));
    dirs.push(home);
    await chmod(home, 0o700);
    const dataDir = join(home, 'clone', '.data', 'postgres');
    await mkdir(dataDir, { recursive: true });
    expect(await unreachableForOthers(dataDir)).toBe(home);
    await chmod(home, 0o711);
    expect(await unreachableForOthers(dataDir)).toBeUndefined();
  });

  // Only root runs the server as another user; as any other user the data directory is the user's own.
  it.runIf(process.getuid?.() === 0)(
    'as root, starting from such a clone says what to do instead of a bare EACCES',
    async () => {
      const home = await mkdtemp(join(tmpdir(), 'dpp-home-'));
      dirs.push(home);
      await chmod(home, 0o700);
      await expect(
        startEmbeddedPostgres({ dataDir: join(home, 'clone', '.data', 'postgres'), port: 1 }),
      ).rejects.toThrow(new RegExp(`cannot enter ${home}.*DATABASE_URL`));
    },
  );
});
