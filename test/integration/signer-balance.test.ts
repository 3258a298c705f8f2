import assert from 'node:assert/strict';
import { parseEther } from 'ethers';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { startTestChain, type TestChain } from '../support/anvil.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { parseExposition, sampleValue } from '../support/prometheus-text.ts';
import { waitFor } from '../support/wait-for.ts';

/**
 * The funded-balance alarm as an operator meets it: the platform signer's balance at /metrics beside its
 * threshold, a warning line in the log and a `warnings` detail at /readyz, which stays 200 (reads and the public
 * pages still work while the signer waits for a refill). The balance is moved with anvil_setBalance.
 */
describe('chain signer balance alarm', () => {
  let chain: TestChain;
  let api: TestApi;
  const logLines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => logLines.push(JSON.parse(line)) });
  let signer: string;

  beforeAll(async () => {
    chain = await startTestChain();
    const account = chain.others[0]!;
    signer = account.address;
    api = await startTestApi(
      {
        CHAIN_RPC_URL_TEST: chain.anvil.rpcUrl,
        CONTRACT_ADDRESS_TEST: chain.contractAddress,
        CHAIN_PRIVATE_KEY_TEST: account.privateKey,
        CHAIN_SIGNER_MIN_BALANCE_TEST: '1.5',
      },
      () => ({ logger }),
    );
  }, 120_000);
  afterAll(async () => {
    await api?.close();
    await chain?.stop();
  });

  const setBalance = (address: string, wei: bigint) =>
    chain.rpc('anvil_setBalance', [address, `0x${wei.toString(16)}`]);
  const scrape = async () => {
    const response = await fetch(`${api.baseUrl}/metrics`);
    assert.equal(response.status, 200);
    return parseExposition(await response.text());
  };
  const balanceAtMetrics = async () =>
    sampleValue(await scrape(), 'dpp_chain_signer_balance_wei', { environment: 'test', signer });
  const ready = () => api.call('GET', '/readyz', { env: null });

  test('a funded signer: its balance and the threshold at /metrics, ready without warnings', async () => {
    await setBalance(signer, parseEther('10'));
    await waitFor('balance at /metrics', balanceAtMetrics, (value) => value === 10e18, 20);
    const families = await scrape();
    assert.equal(families.get('dpp_chain_signer_balance_wei')?.type, 'gauge');
    assert.equal(sampleValue(families, 'dpp_chain_signer_min_balance_wei', { environment: 'test' }), 1.5e18);
    assert.equal(sampleValue(families, 'dpp_chain_signer_empty', { environment: 'test', signer }), 0);
    const answer = await ready();
    assert.equal(answer.status, 200, answer.text);
    assert.equal(answer.body.status, 'ready');
    assert.equal(answer.body.warnings, undefined);
  }, 60_000);

  test('below CHAIN_SIGNER_MIN_BALANCE_TEST: still ready, /readyz warns "low", one warning log line', async () => {
    await setBalance(signer, parseEther('0.25'));
    const answer = await waitFor(
      'a low-balance warning at /readyz',
      ready,
      (value) => value.body.warnings !== undefined,
      20,
    );
    assert.equal(answer.status, 200, 'a low signer does not take the API out of the load balancer');
    assert.equal(answer.body.status, 'ready');
    const warning = answer.body.warnings[`signer:test:${signer}`];
    assert.match(warning, /^low: balance 0\.25 is below the minimum 1\.5 \(CHAIN_SIGNER_MIN_BALANCE_TEST\)/);
    assert.equal(await balanceAtMetrics(), 0.25e18);
    const warned = logLines.filter((line) => line.level === 40 && line.signer === signer);
    assert.equal(warned.length, 1, 'warned once, not on every probe');
    assert.equal(warned[0]!.state, 'low');
    assert.equal(warned[0]!.balance, '0.25');
    assert.equal(warned[0]!.minimum, '1.5');
  }, 60_000);

  test('an empty signer that cannot pay for a transaction is visible: "empty" warning and gauge, still ready', async () => {
    await setBalance(signer, 0n);
    const answer = await waitFor(
      'an empty-signer warning at /readyz',
      ready,
      (value) => String(value.body.warnings?.[`signer:test:${signer}`]).startsWith('empty:'),
      20,
    );
    assert.equal(answer.status, 200);
    assert.match(
      answer.body.warnings[`signer:test:${signer}`],
      /less than one transaction at the current gas price.*chain writes of test wait until it is refilled/,
    );
    assert.equal(sampleValue(await scrape(), 'dpp_chain_signer_empty', { environment: 'test', signer }), 1);
    const warned = logLines.filter((line) => line.level === 40 && line.signer === signer);
    assert.equal(warned.at(-1)!.state, 'empty', 'getting worse is logged at once');
  }, 60_000);

  test('refilled: the warning goes away and the recovery is logged', async () => {
    await setBalance(signer, parseEther('3'));
    await waitFor('no warnings at /readyz', ready, (value) => value.body.warnings === undefined, 20);
    assert.equal(await balanceAtMetrics(), 3e18);
    assert.ok(
      logLines.some(
        (line) => line.level === 30 && line.signer === signer && /back above/.test(String(line.msg)),
      ),
    );
  }, 60_000);

  test('an API process without the signer key reports the signers the transaction manager recorded', async () => {
    const other = await startTestApi({
      CHAIN_RPC_URL_TEST: chain.anvil.rpcUrl,
      CONTRACT_ADDRESS_TEST: chain.contractAddress,
      CHAIN_SIGNER_MIN_BALANCE_TEST: '1.5',
    });
    try {
      const recorded = chain.others[1]!.address;
      await other.db.orm.em
        .getConnection()
        .execute('insert into chain_signers (chain_id, address, next_nonce) values (31337, ?, 0)', [
          recorded,
        ]);
      await setBalance(recorded, parseEther('0.5'));
      const answer = await waitFor(
        'the recorded signer at /readyz',
        () => other.call('GET', '/readyz', { env: null }),
        (value) => value.body.warnings !== undefined,
        20,
      );
      assert.equal(answer.status, 200);
      assert.match(answer.body.warnings[`signer:test:${recorded}`], /^low: balance 0\.5 /);
    } finally {
      await other.close();
    }
  }, 60_000);
});
