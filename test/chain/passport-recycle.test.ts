import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  Contract,
  ContractFactory,
  Interface,
  id,
  type JsonFragment,
  parseEther,
  Wallet,
  ZeroAddress,
  ZeroHash,
} from 'ethers';
import { afterAll, beforeAll, test } from 'vitest';
import { decodeRevert } from '../../src/adapters/chain/errors.ts';
import { compileSolidity } from '../../src/adapters/chain/solidity-compiler.ts';
import { assertReverts, startTestChain, type TestChain } from '../support/anvil.ts';
import { mined } from '../support/passport-contract.ts';

let t: TestChain;
let deployer: Wallet;
let rejecting: string;
let reentrant: Contract;
let chip = 0;

beforeAll(async () => {
  t = await startTestChain();
  deployer = new Wallet(t.others[5]!.privateKey, t.chain.provider);
  const source = readFileSync(new URL('./contracts/DepositReceivers.sol', import.meta.url), 'utf8');
  const { contracts } = compileSolidity({ 'DepositReceivers.sol': source });
  const deploy = async (name: string, ...args: unknown[]) => {
    const compiled = contracts[`DepositReceivers.sol:${name}`]!;
    const factory = new ContractFactory(compiled.abi as JsonFragment[], compiled.bytecode, deployer);
    const contract = await factory.deploy(...args);
    await contract.waitForDeployment();
    return contract as Contract;
  };
  rejecting = await (await deploy('RejectingReceiver')).getAddress();
  reentrant = await deploy('ReentrantRecycler', t.contractAddress);
  // the attacker gets the recycling right, to prove the deposit still leaves only once
  const passportAsAdmin = new Contract(
    t.contractAddress,
    t.chain.artifact.abi as JsonFragment[],
    new Wallet(t.platform.privateKey, t.chain.provider),
  );
  await mined(
    await passportAsAdmin.getFunction('grantRole')(id('MINTER_ROLE'), await reentrant.getAddress()),
  );
});
afterAll(() => t.stop());

const balance = (address: string) => t.chain.provider.getBalance(address);

async function mint(depositWei: bigint): Promise<string> {
  chip++;
  const chipUid = `04DE9051700${chip.toString().padStart(3, '0')}`;
  return (
    await t.chain.writer.mint({
      to: t.others[0]!.address,
      metadataUri: `ipfs://r${chip}`,
      chipUid,
      depositWei,
    })
  ).tokenId;
}

test('the deposit is locked in the contract at mint', async () => {
  const before = await balance(t.contractAddress);
  const tokenId = await mint(parseEther('0.05'));
  assert.equal(await balance(t.contractAddress), before + parseEther('0.05'));
  assert.equal(await t.chain.reader.depositOf(tokenId), parseEther('0.05'));
});

test('recycle pays exactly the deposit to the receiver, once, and freezes the token', async () => {
  const deposit = parseEther('0.2');
  const tokenId = await mint(deposit);
  const receiver = Wallet.createRandom().address;
  const contractBefore = await balance(t.contractAddress);

  const result = await t.chain.writer.recycle({ tokenId, rewardReceiver: receiver });
  assert.equal(result.amount, deposit);
  assert.deepEqual(result.events, [
    { name: 'Recycled', args: { tokenId: BigInt(tokenId), rewardReceiver: receiver, amount: deposit } },
  ]);
  assert.equal(await balance(receiver), deposit);
  assert.equal(await balance(t.contractAddress), contractBefore - deposit);
  assert.equal(await t.chain.reader.isRecycled(tokenId), true);
  assert.equal(await t.chain.reader.depositOf(tokenId), 0n);
  assert.equal(
    await t.chain.reader.ownerOf(tokenId),
    t.others[0]!.address,
    'the token and its history remain',
  );

  await assertReverts(t.chain.writer.recycle({ tokenId, rewardReceiver: receiver }), 'AlreadyRecycled', {
    tokenId: BigInt(tokenId),
  });
  assert.equal(await balance(receiver), deposit);
  assert.equal(await balance(t.contractAddress), contractBefore - deposit);
  await assertReverts(
    t.chain.writer.logEvent({ tokenId, action: 'QC_PASSED', dataHash: ZeroHash }),
    'TokenIsRecycled',
  );

  const owner = new Contract(
    t.contractAddress,
    t.chain.artifact.abi as JsonFragment[],
    new Wallet(t.others[0]!.privateKey, t.chain.provider),
  );
  const transfer = await owner
    .getFunction('transferFrom')
    .staticCall(t.others[0]!.address, t.others[1]!.address, tokenId)
    .catch((e: unknown) => e);
  assert.equal(decodeRevert(owner.interface, transfer)?.name, 'TokenIsRecycled');
});

test('a token without deposit recycles with amount 0', async () => {
  const tokenId = await mint(0n);
  const receiver = Wallet.createRandom().address;
  const result = await t.chain.writer.recycle({ tokenId, rewardReceiver: receiver });
  assert.equal(result.amount, 0n);
  assert.equal(await balance(receiver), 0n);
  assert.equal(await t.chain.reader.isRecycled(tokenId), true);
});

test('a receiver refusing the payment makes recycling fail as a whole', async () => {
  const deposit = parseEther('0.01');
  const tokenId = await mint(deposit);
  const contractBefore = await balance(t.contractAddress);
  await assertReverts(
    t.chain.writer.recycle({ tokenId, rewardReceiver: rejecting }),
    'DepositTransferFailed',
    {
      tokenId: BigInt(tokenId),
      rewardReceiver: rejecting,
      amount: deposit,
    },
  );
  assert.equal(await t.chain.reader.isRecycled(tokenId), false);
  assert.equal(await t.chain.reader.depositOf(tokenId), deposit);
  assert.equal(await balance(t.contractAddress), contractBefore);
  const receiver = Wallet.createRandom().address;
  await t.chain.writer.recycle({ tokenId, rewardReceiver: receiver });
  assert.equal(await balance(receiver), deposit);
});

test('a reentrant receiver is paid once; its nested recycle is refused', async () => {
  const deposit = parseEther('0.3');
  const tokenId = await mint(deposit);
  await mined(await reentrant.getFunction('setTarget')(tokenId));
  const attacker = await reentrant.getAddress();
  const contractBefore = await balance(t.contractAddress);

  await t.chain.writer.recycle({ tokenId, rewardReceiver: attacker });
  assert.equal(await reentrant.getFunction('reentryAttempts')(), 1n);
  const nested = (await reentrant.getFunction('reentryError')()) as string;
  const passportInterface = new Interface(t.chain.artifact.abi as JsonFragment[]);
  assert.equal(decodeRevert(passportInterface, { data: nested })?.name, 'ReentrancyGuardReentrantCall');
  assert.equal(await balance(attacker), deposit);
  assert.equal(await balance(t.contractAddress), contractBefore - deposit);
});

test('recycle refuses the zero receiver and unknown tokens', async () => {
  const tokenId = await mint(1n);
  await assertReverts(t.chain.writer.recycle({ tokenId, rewardReceiver: ZeroAddress }), 'ZeroAddress');
  await assertReverts(
    t.chain.writer.recycle({ tokenId: 9999, rewardReceiver: t.others[1]!.address }),
    'UnknownToken',
    {
      tokenId: 9999n,
    },
  );
});

test('the contract holds exactly the deposits of the tokens not yet recycled', async () => {
  let locked = 0n;
  for (let tokenId = 1n; tokenId <= (await t.chain.reader.totalMinted()); tokenId++)
    locked += await t.chain.reader.depositOf(tokenId);
  assert.equal(await balance(t.contractAddress), locked);
});
