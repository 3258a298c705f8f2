import assert from 'node:assert/strict';
import { parseEther } from 'ethers';
import { test } from 'vitest';
import { ANVIL_CHAIN_ID, findAnvilBinary, startAnvil } from '../../src/adapters/chain/anvil.ts';
import { createChainProvider } from '../../src/adapters/chain/passport-chain.ts';

const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

test('starts the real anvil on free ports, with funded dev accounts, and stops it', async () => {
  const [a, b] = await Promise.all([startAnvil(), startAnvil({ chainId: 4242 })]);
  try {
    assert.notEqual(a.port, b.port);
    assert.equal(a.rpcUrl, `http://127.0.0.1:${a.port}`);
    const provider = createChainProvider(a.rpcUrl);
    const other = createChainProvider(b.rpcUrl);
    try {
      assert.equal((await provider.getNetwork()).chainId, BigInt(ANVIL_CHAIN_ID));
      assert.equal((await other.getNetwork()).chainId, 4242n);
      const nodeAccounts = (await provider.send('eth_accounts', [])) as string[];
      assert.deepEqual(
        nodeAccounts.map((x) => x.toLowerCase()),
        a.accounts.map((x) => x.address.toLowerCase()),
      );
      assert.equal(await provider.getBalance(a.accounts[9]!.address), parseEther('10000'));
    } finally {
      provider.destroy();
      other.destroy();
    }
  } finally {
    await Promise.all([a.stop(), b.stop()]);
  }
  assert.equal(isRunning(a.pid), false);
  assert.equal(isRunning(b.pid), false);
  await a.stop(); // idempotent
});

test('blockTime mines blocks without transactions', async () => {
  const anvil = await startAnvil({ blockTime: 1 });
  const provider = createChainProvider(anvil.rpcUrl);
  try {
    await new Promise((resolve) => setTimeout(resolve, 1_300));
    assert.ok((await provider.getBlockNumber()) >= 1);
  } finally {
    provider.destroy();
    await anvil.stop();
  }
});

test('a missing binary is reported clearly', async () => {
  assert.match(findAnvilBinary(), /anvil$/);
  const saved = process.env.ANVIL_BINARY;
  process.env.ANVIL_BINARY = '/nonexistent/anvil';
  try {
    await assert.rejects(startAnvil(), /ANVIL_BINARY names \/nonexistent\/anvil, which does not exist/);
  } finally {
    if (saved === undefined) delete process.env.ANVIL_BINARY;
    else process.env.ANVIL_BINARY = saved;
  }
});
