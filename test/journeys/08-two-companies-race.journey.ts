import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, test } from 'vitest';
import { chipUid, cliTap, http, stack } from './client.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ROUNDS = 10;

/** A second brand, created as an operator does: npm run cli -- company:create against the running database. */
async function secondCompanyKey(): Promise<string> {
  const { stdout } = await promisify(execFile)(
    'npm',
    [
      'run',
      '--silent',
      'cli',
      '--',
      'company:create',
      '--name',
      `Rival Brand ${Date.now()}`,
      '--env',
      'test',
    ],
    { cwd: ROOT, env: { ...process.env, DATABASE_URL: stack().databaseUrl } },
  );
  const key = /^\s+(sk_test_\w+)$/m.exec(stdout)?.[1];
  assert.ok(key, stdout);
  return key;
}

// Two companies mint the same new chip at the same moment (a chip read at two factories, a cloned UID): exactly
// one gets the passport, and the other learns nothing of it.
describe('two companies mint the same chip at once', () => {
  test(`${ROUNDS} rounds: one 201 each, the other 409 with nothing of the winner's mint`, async () => {
    const keys = [stack().demoKey, await secondCompanyKey()];
    for (let round = 0; round < ROUNDS; round++) {
      const chip = chipUid(0xca, round);
      const { nfcData } = await cliTap(chip);
      const answers = await Promise.all(
        keys.map((key) =>
          http('POST', '/v1/dpp/mint', {
            key,
            body: {
              name: 'Contested Jacket',
              chipUid: chip,
              nfcData,
              custom_dpp_data: { conformity_url: 'https://brand.example/doc/conformity.pdf' },
            },
          }),
        ),
      );
      const statuses = answers.map((a) => a.status).sort();
      assert.deepEqual(statuses, [201, 409], answers.map((a) => a.text).join(' | '));
      const won = answers.find((a) => a.status === 201)!;
      const lost = answers.find((a) => a.status === 409)!;
      assert.ok(!lost.text.includes(won.body.blockchain.transactionHash), lost.text);
      assert.equal(lost.body.blockchain, undefined, lost.text);
      assert.equal(lost.body.data, undefined, lost.text);
      assert.equal(lost.body.code, 'chip_enrolled_elsewhere', lost.text);
    }
  });
});
