import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, test } from 'vitest';
import type { PassportChain } from '../../src/adapters/chain/passport-chain.ts';
import { startTestChain, type TestChain } from '../support/anvil.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';

let db: TestDatabase;
let t: TestChain;
let chain: PassportChain;

beforeAll(async () => {
  [db, t] = await Promise.all([createTestDatabase(), startTestChain()]);
  chain = t.connect(t.platform.privateKey, { transactions: { orm: db.orm } });
}, 60_000);
afterAll(async () => {
  await t?.stop();
  await db?.drop();
});

const cli = (...args: string[]) =>
  promisify(execFile)('sh', ['scripts/node24.sh', 'scripts/cli.ts', ...args], {
    env: { ...process.env, DATABASE_URL: db.url, LOG_LEVEL: 'warn' },
  });

test('npm run cli -- chain:transactions shows operators each transaction with its state; --state open the ones still waiting', async () => {
  const minted = await chain.writer.mint({
    to: t.others[0]!.address,
    metadataUri: 'ipfs://cli',
    chipUid: '04CC0000000001',
  });
  // One more, left in the mempool: automine off.
  await t.rpc('evm_setAutomine', [false]);
  let waiting = '';
  const pending = chain.writer.logEvent(
    { tokenId: minted.tokenId, action: 'SHIPPED', dataHash: `0x${'ab'.repeat(32)}` },
    {
      onSubmitted: (hash) => {
        waiting = hash;
      },
    },
  );
  while (!waiting) await new Promise((resolve) => setTimeout(resolve, 20));

  const all = (await cli('chain:transactions')).stdout.trim().split('\n');
  assert.match(all[0]!, /^id\s+chain\s+signer\s+nonce\s+state/);
  assert.equal(all.length, 3);
  assert.match(all[1]!, new RegExp(`\\bsent\\s+logEvent\\b.*${waiting}`));
  assert.match(all[2]!, new RegExp(`\\bconfirmed\\s+mint\\b.*${minted.txHash}`));

  const open = (await cli('chain:transactions', '--state', 'open')).stdout.trim().split('\n');
  assert.equal(open.length, 2);
  assert.ok(open[1]!.includes(waiting));

  await assert.rejects(cli('chain:transactions', '--state', 'lost'), /--state must be open or one of/);
  await t.rpc('evm_setAutomine', [true]);
  await t.rpc('evm_mine');
  await pending;
}, 120_000);
