import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { FACTORY_DEFAULT_KEY, generateSun } from '../../src/sun/index.ts';
import type { TestTenant } from '../support/api.ts';
import { startTestStack, TEST_DEPOSIT, type TestStack } from '../support/stack.ts';
import { armWatchdog } from '../support/temporal.ts';

const WORKER = fileURLToPath(new URL('./fixtures/crashing-worker-process.ts', import.meta.url));

function waitForLine(child: ChildProcess, prefix: string, ms: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    const timer = setTimeout(
      () => reject(new Error(`worker process did not print ${prefix} within ${ms} ms`)),
      ms,
    );
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const line = buffered.split('\n').find((l) => l.startsWith(prefix));
      if (line) {
        clearTimeout(timer);
        resolve(line.slice(prefix.length).trim());
      }
    });
    child.once('exit', (code) => reject(new Error(`worker process exited (${code}) before ${prefix}`)));
  });
}

describe('a worker killed after sending the mint transaction', () => {
  let stack: TestStack;
  let tenant: TestTenant;
  let child: ChildProcess | undefined;

  before(async () => {
    armWatchdog(180_000, 'mint crash test');
    stack = await startTestStack({ startWorker: false });
    tenant = await stack.api.createTenant();
  });
  after(async () => {
    child?.kill('SIGKILL');
    await stack.close();
  });

  test('leaves exactly one token once another worker takes over', async () => {
    child = spawn(process.execPath, [WORKER], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: {
        ...process.env,
        WORKER_DATABASE_URL: stack.api.db.url,
        WORKER_RPC_URL: stack.chain.anvil.rpcUrl,
        WORKER_PRIVATE_KEY: stack.chain.platform.privateKey,
        WORKER_CONTRACT: stack.chain.contractAddress,
        WORKER_TEMPORAL_ADDRESS: stack.temporal.address,
        WORKER_TASK_QUEUE: 'dpp-test',
        WORKER_STALL_AFTER: 'mint',
        WORKER_IPFS_DIR: stack.api.config.ipfs.storeDir,
        WORKER_DEPOSIT: TEST_DEPOSIT,
        WORKER_PUBLIC_BASE_URL: stack.api.config.publicBaseUrl,
      },
    });
    await waitForLine(child, 'READY', 60_000);

    const uid = '04C0FFEE000001';
    const call = (method: string, path: string, body?: unknown) =>
      stack.api.call(method, path, { key: tenant.testKey, ...(body === undefined ? {} : { body }) });
    await call('POST', '/v1/dpp/enroll', { chipUid: uid });
    const tap = generateSun({
      uid,
      counter: 1,
      keys: { metaReadKey: FACTORY_DEFAULT_KEY, fileReadKey: FACTORY_DEFAULT_KEY },
    });
    const submitted = waitForLine(child, 'SUBMITTED', 60_000);
    const mint = call('POST', '/v1/dpp/mint', {
      name: 'Boot',
      chipUid: uid,
      nfcData: `picc_data=${tap.piccData}&cmac=${tap.cmac}`,
      custom_dpp_data: { conformity_url: 'https://acme.example/doc.pdf' },
    });
    const txHash = await submitted;
    child.kill('SIGKILL');
    await new Promise((resolve) => child!.once('exit', resolve));
    assert.ok(await stack.chain.chain.findTokenByChip(uid), 'the transaction was mined before the crash');

    await stack.startWorker();
    const answer = await mint;
    let result = answer.body;
    if (answer.status === 202) {
      for (let i = 0; i < 100 && result.status !== 'COMPLETED'; i++) {
        await new Promise((r) => setTimeout(r, 300));
        result = (await call('GET', `/v1/dpp/mint/${uid}`)).body;
      }
      result = result.result;
    } else {
      assert.equal(answer.status, 201, answer.text);
    }
    assert.equal(result.blockchain.transactionHash, txHash, 'the crashed attempt’s transaction is the mint');
    assert.equal(await stack.chain.chain.totalMinted(), 1n, 'exactly one token on chain');
    const rows = await stack.api.db.orm.em
      .getConnection()
      .execute('select count(*)::int as n from passports');
    assert.equal(rows[0]!.n, 1);
  });
});
