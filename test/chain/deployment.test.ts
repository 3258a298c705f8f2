import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Wallet } from 'ethers';
import { afterAll, describe, test } from 'vitest';
import { startAnvil } from '../../src/adapters/chain/anvil.ts';
import { DEPLOYMENTS_FILE, ensurePassportDeployment } from '../../src/adapters/chain/deployment.ts';
import { openPassportChains } from '../../src/adapters/chain/environment-chains.ts';
import { createChainProvider, PassportChain } from '../../src/adapters/chain/passport-chain.ts';
import { loadConfig } from '../../src/platform/config/config.ts';
import { startTestChain } from '../support/anvil.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { LIVE_TEST_SECRETS } from '../support/secrets.ts';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'dpp-chain-'));
  dirs.push(dir);
  return dir;
};
// A database per chain started here: the transaction managers' nonces belong to one chain each.
const databases: TestDatabase[] = [];
const freshOrm = async () => {
  const db = await createTestDatabase();
  databases.push(db);
  return db.orm;
};
afterAll(async () => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  for (const db of databases) await db.drop();
});

async function ensureOn(rpcUrl: string, privateKey: string, environment: string, dataDir: string) {
  const provider = createChainProvider(rpcUrl, 50);
  try {
    return await ensurePassportDeployment({ environment, dataDir, signer: new Wallet(privateKey, provider) });
  } finally {
    provider.destroy();
  }
}

describe('ensurePassportDeployment', () => {
  test('deploys once per environment, reuses the recorded address, redeploys on a fresh chain', async () => {
    const dataDir = tempDir();
    const first = await startAnvil();
    const key = first.accounts[0]!.privateKey;
    let address: string;
    try {
      const deployed = await ensureOn(first.rpcUrl, key, 'test', dataDir);
      assert.equal(deployed.deployed, true);
      address = deployed.address;
      const again = await ensureOn(first.rpcUrl, key, 'test', dataDir);
      assert.deepEqual({ address: again.address, deployed: again.deployed }, { address, deployed: false });
      const live = await ensureOn(first.rpcUrl, key, 'live', dataDir);
      assert.equal(live.deployed, true);
      assert.notEqual(live.address, address);
      const records = JSON.parse(readFileSync(join(dataDir, DEPLOYMENTS_FILE), 'utf8')) as Record<
        string,
        unknown
      >;
      assert.deepEqual(
        Object.keys(records)
          .map((k) => k.split(':').slice(0, 2).join(':'))
          .sort(),
        ['live:31337', 'test:31337'],
      );
    } finally {
      await first.stop();
    }

    const fresh = await startAnvil(); // same chain id, empty state: the recorded address holds no code
    try {
      const redeployed = await ensureOn(fresh.rpcUrl, key, 'test', dataDir);
      assert.equal(redeployed.deployed, true);
    } finally {
      await fresh.stop();
    }
  });

  test('with an anvil state file the contract and its tokens survive a restart', async () => {
    const dataDir = tempDir();
    const stateFile = join(dataDir, 'anvil-state.json');
    const before = await startAnvil({ stateFile });
    const key = before.accounts[0]!.privateKey;
    const { address } = await ensureOn(before.rpcUrl, key, 'test', dataDir);
    const orm = await freshOrm();
    const chain = new PassportChain({
      rpcUrl: before.rpcUrl,
      privateKey: key,
      contractAddress: address,
      pollIntervalMs: 50,
      transactions: { orm },
    });
    const { tokenId } = await chain.writer.mint({
      to: before.accounts[1]!.address,
      metadataUri: 'ipfs://keep',
      chipUid: '04BB000000000A',
    });
    await chain.close();
    await before.stop();

    const restarted = await startAnvil({ stateFile });
    try {
      const reused = await ensureOn(restarted.rpcUrl, key, 'test', dataDir);
      assert.deepEqual({ address: reused.address, deployed: reused.deployed }, { address, deployed: false });
      const reopened = await PassportChain.connect({
        rpcUrl: restarted.rpcUrl,
        privateKey: key,
        contractAddress: address,
        transactions: { orm },
      });
      assert.equal(await reopened.reader.findTokenByChip('04BB000000000A'), tokenId);
      await reopened.close();
    } finally {
      await restarted.stop();
    }
  });
});

test('connect refuses an address without the passport contract', async () => {
  const anvil = await startAnvil();
  try {
    await assert.rejects(
      PassportChain.connect({
        rpcUrl: anvil.rpcUrl,
        privateKey: anvil.accounts[0]!.privateKey,
        contractAddress: anvil.accounts[1]!.address,
        transactions: { orm: await freshOrm() },
      }),
      /no DigitalProductPassport contract at 0x[0-9a-fA-F]{40} on chain 31337/,
    );
  } finally {
    await anvil.stop();
  }
});

describe('openPassportChains', () => {
  test('without CHAIN_RPC_URL_*: one local anvil, a contract and a key per environment', async () => {
    const chains = await openPassportChains(loadConfig({}), { dataDir: tempDir(), orm: await freshOrm() });
    try {
      assert.ok(chains.anvil);
      assert.notEqual(chains.live.contractAddress, chains.test.contractAddress);
      assert.notEqual(chains.live.signerAddress, chains.test.signerAddress);
      const owner = chains.anvil.accounts[5]!.address;
      const live = await chains.live.writer.mint({
        to: owner,
        metadataUri: 'ipfs://live',
        chipUid: '04CC000000000A',
      });
      const test = await chains.test.writer.mint({
        to: owner,
        metadataUri: 'ipfs://test',
        chipUid: '04CC000000000A',
      });
      assert.equal(live.tokenId, '1');
      assert.equal(test.tokenId, '1', 'the environments do not share token ids or chips');
      assert.equal(await chains.test.reader.findTokenByChip('04CC000000000A'), '1');
    } finally {
      await chains.close();
    }
  });

  test('a configured chain needs its contract address and key', async () => {
    await assert.rejects(
      openPassportChains(loadConfig({ ...LIVE_TEST_SECRETS, CHAIN_RPC_URL_LIVE: 'http://127.0.0.1:1' }), {
        dataDir: tempDir(),
        orm: await freshOrm(),
      }),
      (error: Error & { variables?: string[] }) => {
        assert.equal(error.name, 'ConfigError');
        assert.deepEqual(error.variables, ['CONTRACT_ADDRESS_LIVE', 'CHAIN_PRIVATE_KEY_LIVE']);
        return true;
      },
    );
  });

  test('a configured chain is used as configured', async () => {
    // Another chain (its own chain id): the local live chain signs with the same anvil key.
    const remote = await startTestChain({ anvil: { chainId: 31338 } });
    const chains = await openPassportChains(
      loadConfig({
        CHAIN_RPC_URL_TEST: remote.anvil.rpcUrl,
        CONTRACT_ADDRESS_TEST: remote.contractAddress,
        CHAIN_PRIVATE_KEY_TEST: remote.platform.privateKey,
      }),
      { dataDir: tempDir(), orm: await freshOrm() },
    );
    try {
      assert.equal(chains.test.contractAddress, remote.contractAddress);
      assert.equal(chains.test.signerAddress, remote.platform.address);
      const { tokenId } = await chains.test.writer.mint({
        to: remote.others[0]!.address,
        metadataUri: 'ipfs://p',
        chipUid: '04DD000000000A',
      });
      assert.equal(await remote.chain.reader.ownerOf(tokenId), remote.others[0]!.address);
      assert.notEqual(chains.anvil?.rpcUrl, remote.anvil.rpcUrl, 'live still runs on its own local chain');
    } finally {
      await chains.close();
      await remote.stop();
    }
  });
});
