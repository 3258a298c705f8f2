import assert from 'node:assert/strict';
import type { Client } from '@temporalio/client';
import type { NativeConnection } from '@temporalio/worker';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { obtainTemporalCli } from '../../scripts/dev/temporal-binaries.ts';
import { type DevServer, startDevServer } from '../../scripts/dev/temporal-dev-server.ts';
import { connectClient } from '../../src/adapters/temporal/connection.ts';
import { chainCheck, temporalCheck } from '../../src/platform/runtime/readiness.ts';
import { startTestChain, type TestChain } from '../support/anvil.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { LIVE_TEST_SECRETS } from '../support/secrets.ts';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts';
import { installTestRuntime } from '../support/temporal.ts';
import { waitFor } from '../support/wait-for.ts';

/** /readyz as an orchestrator's probe sees it: PostgreSQL, Temporal and each configured chain. */
describe('readiness', () => {
  let chain: TestChain;
  let temporal: DevServer;
  let temporalProxy: TcpProxy;
  let liveProxy: TcpProxy;
  let client: { client: Client; connection: NativeConnection };
  let api: TestApi;

  beforeAll(async () => {
    installTestRuntime();
    chain = await startTestChain();
    temporal = await startDevServer({ cliPath: (await obtainTemporalCli()).path, port: 0 });
    temporalProxy = await startTcpProxy(Number(temporal.address.split(':').pop()));
    liveProxy = await startTcpProxy(Number(new URL(chain.anvil.rpcUrl).port));
    api = await startTestApi(
      {
        ...LIVE_TEST_SECRETS,
        CHAIN_RPC_URL_TEST: chain.anvil.rpcUrl,
        CONTRACT_ADDRESS_TEST: chain.contractAddress,
        CHAIN_RPC_URL_LIVE: liveProxy.url,
        CONTRACT_ADDRESS_LIVE: chain.contractAddress,
        CHAIN_ID_LIVE: '31337',
        CHAIN_ID_TEST: '31337',
      },
      (config) => ({
        readiness: {
          temporal: async () => {
            client ??= await connectClient(config.temporal, new URL(temporalProxy.url).host);
            await temporalCheck(client.client)();
          },
        },
      }),
    );
  }, 120_000);
  afterAll(async () => {
    await api?.close();
    await client?.connection.close();
    await temporalProxy?.close();
    await liveProxy?.close();
    await temporal?.stop();
    await chain?.stop();
  });

  const ready = () => api.call('GET', '/readyz', { env: null });

  test('every dependency answers: 200 with each check named', async () => {
    const answer = await ready();
    assert.equal(answer.status, 200, answer.text);
    assert.deepEqual(answer.body, {
      status: 'ready',
      checks: { database: 'ok', 'chain:live': 'ok', 'chain:test': 'ok', temporal: 'ok' },
    });
  });

  test('a chain endpoint that stops answering makes the service unready, naming the chain but not its URL', async () => {
    liveProxy.cut();
    const answer = await ready();
    assert.equal(answer.status, 503);
    assert.equal(answer.body.code, 'not_ready');
    assert.equal(answer.body.checks['chain:test'], 'ok');
    assert.equal(answer.body.checks.database, 'ok');
    assert.notEqual(answer.body.checks['chain:live'], 'ok');
    assert.match(answer.body.detail, /chain:live/);
    assert.ok(
      !answer.text.includes(new URL(liveProxy.url).port),
      'the RPC URL (it may hold an API key) is not shown',
    );
    liveProxy.restore();
    assert.equal((await ready()).status, 200);
  });

  test('Temporal unreachable: unready (temporal), ready again once it answers', async () => {
    temporalProxy.cut();
    const answer = await ready();
    assert.equal(answer.status, 503);
    assert.notEqual(answer.body.checks.temporal, 'ok');
    assert.equal(answer.body.checks['chain:live'], 'ok');
    temporalProxy.restore();
    await waitFor(
      'readiness after Temporal is back',
      async () => (await ready()).status,
      (status) => status === 200,
      30,
    );
  }, 60_000);

  test('a chain with the wrong chain id or without the contract is not ready; a failover endpoint that answers is', async () => {
    await assert.rejects(
      chainCheck({ rpcUrls: [chain.anvil.rpcUrl], chainId: 137 })(),
      /chain id 31337, expected 137/,
    );
    await assert.rejects(
      chainCheck({
        rpcUrls: [chain.anvil.rpcUrl],
        chainId: 31337,
        contractAddress: '0x000000000000000000000000000000000000dEaD',
      })(),
      /no contract at 0x000000000000000000000000000000000000dEaD/,
    );
    liveProxy.cut();
    await chainCheck({
      rpcUrls: [liveProxy.url, chain.anvil.rpcUrl],
      chainId: 31337,
      contractAddress: chain.contractAddress,
    })();
    await assert.rejects(chainCheck({ rpcUrls: [liveProxy.url], chainId: 31337 })(), (error: Error) => {
      assert.ok(!error.message.includes('127.0.0.1'), error.message);
      return true;
    });
    liveProxy.restore();
  });
});
