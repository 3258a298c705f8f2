import assert from 'node:assert/strict';
import { Interface, type JsonFragment, keccak256, toUtf8Bytes } from 'ethers';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { sweepPendingLevelAnchors } from '../../src/passport/levels/level-anchor-sweep.ts';
import { recordLevelVersion } from '../../src/passport/levels/level-versions.ts';
import { findLevelById } from '../../src/passport/levels/levels.ts';
import { createLogger } from '../../src/platform/logging/logger.ts';
import type { TestTenant } from '../support/api.ts';
import { contentPath, BATTERY_V1 as V1 } from '../support/fixtures/battery.ts';
import { GTIN } from '../support/fixtures/products.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';

// biome-ignore lint/suspicious/noExplicitAny: JSON as served
type Json = any;

/**
 * Model and batch passport versions on chain (issue 34, docs/granularity.md "Versions and anchoring"): each
 * version's hashes in one VersionAnchored log, exactly once, shown by the version reads; reads by date.
 */
describe('model and batch passports: versions anchored on chain, read by date', () => {
  let stack: TestStack;
  let brand: TestTenant;
  let modelId: string;
  const dppPath = (dppId: string) => `/v1/dpps/${encodeURIComponent(dppId)}`;
  const call = (method: string, path: string, body?: unknown) =>
    stack.api.call(method, path, { key: brand.testKey, body });
  const versions = async (dppId: string): Promise<Json[]> =>
    (await call('GET', `${dppPath(dppId)}/versions`)).body.items;
  /** The level's versions once every one of them is anchored (their workflows run after each write). */
  const anchoredVersions = async (dppId: string): Promise<Json[]> => {
    let items: Json[] = [];
    for (let tries = 0; tries < 120; tries++) {
      items = await versions(dppId);
      if (items.every((item) => item.anchorStatus === 'anchored')) return items;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    assert.fail(`not anchored: ${JSON.stringify(items)}`);
  };

  beforeAll(async () => {
    stack = await startTestStack();
    brand = await stack.api.createTenant('Voltaic Cells');
    const created = await call('POST', '/v1/dpps', {
      granularity: 'Model',
      gtin: GTIN,
      [V1]: { generalProductInformation: { manufacturerName: 'Voltaic Model Works' } },
    });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.version.anchorStatus, 'pending', 'anchored after the commit, by its workflow');
    modelId = created.body.digitalProductPassportId;
    const put = await call('PUT', dppPath(modelId), {
      [V1]: { generalProductInformation: { manufacturerName: 'Voltaic Model Works', warrantyPeriod: 'P4Y' } },
    });
    assert.equal(put.status, 200, put.text);
    const content = await call('PUT', contentPath(modelId), {
      generalProductInformation: { manufacturerName: 'Voltaic Model Works', warrantyPeriod: 'P6Y' },
    });
    assert.equal(content.status, 200, content.text);
    assert.equal(content.body.version.number, 3);
  }, 600_000);
  afterAll(async () => {
    await stack?.close();
  });

  test('every level version is anchored on chain once: its VersionAnchored log carries its hashes', async () => {
    const items = await anchoredVersions(modelId);
    assert.equal(items.length, 3);
    const contract = new Interface(stack.chain.chain.artifact.abi as JsonFragment[]);
    const provider = stack.chain.chain.provider;
    for (const item of items) {
      const subject = keccak256(toUtf8Bytes(`${modelId}/versions/${item.number}`));
      assert.equal(item.anchor.subject, subject);
      assert.equal(item.anchor.contractAddress.toLowerCase(), stack.chain.contractAddress.toLowerCase());
      const receipt = (await provider.getTransactionReceipt(item.anchor.transactionHash))!;
      assert.equal(receipt.status, 1);
      assert.equal(receipt.blockNumber, item.anchor.blockNumber);
      const log = receipt.logs
        .map((entry) => contract.parseLog({ topics: [...entry.topics], data: entry.data }))
        .find((parsed) => parsed?.name === 'VersionAnchored')!;
      assert.equal(log.args.subject, subject);
      assert.equal(log.args.dataHash, `0x${item.sha256}`, 'the whole document’s SHA-256');
      assert.equal(log.args.publicDataHash, `0x${item.publicSha256}`, 'the public part’s SHA-256');
      const logs = await provider.getLogs({
        address: stack.chain.contractAddress,
        topics: [contract.getEvent('VersionAnchored')!.topicHash, subject],
        fromBlock: 0,
      });
      assert.equal(logs.length, 1, `version ${item.number} anchored exactly once`);
      assert.ok(receipt.gasUsed < 30_000n, `an event, no storage: ${receipt.gasUsed} gas (27,037 measured)`);
    }
    const anonymous = await stack.api.call('GET', `${dppPath(modelId)}/versions/2`, { key: null });
    assert.equal(anonymous.status, 200, anonymous.text);
    assert.equal(anonymous.body.anchor.transactionHash, items[1].anchor.transactionHash, 'shown to anyone');
    assert.equal(anonymous.body.sha256, undefined, 'the whole hash stays the owner’s');
  });

  test('dppsByIdAndDate reads a level as it was at a date', async () => {
    const items = await versions(modelId);
    const byDate = (date: string) =>
      stack.api.call(
        'GET',
        `/v1/dppsByIdAndDate/${encodeURIComponent(modelId)}?date=${encodeURIComponent(date)}`,
        { key: null },
      );
    const second = await byDate(items[1].createdAt);
    assert.equal(second.status, 200, second.text);
    assert.equal(second.body.number, 2);
    assert.equal(second.body.dpp[V1].generalProductInformation.warrantyPeriod, 'P4Y');
    const latest = await byDate(new Date(Date.now() + 60_000).toISOString());
    assert.equal(latest.status, 200, latest.text);
    assert.equal(latest.body.number, 3);
    assert.equal(latest.body.dpp[V1].generalProductInformation.warrantyPeriod, 'P6Y');
    const before = await byDate(new Date(Date.parse(items[0].createdAt) - 1_000).toISOString());
    assert.equal(before.status, 404, before.text);
    assert.equal(before.body.code, 'version_not_found');
  });

  test('a version whose anchor never started (the API stopped after its commit) is anchored by the sweep', async () => {
    const em = stack.api.db.orm.em.fork();
    const level = (await findLevelById(em, 'test', modelId))!;
    // Recorded as a write records it, and no workflow started for it.
    const version = await em.transactional((tx) =>
      recordLevelVersion(tx, level, stack.api.config.publicBaseUrl),
    );
    assert.equal((await versions(modelId)).at(-1).anchorStatus, 'pending');
    const gateway = {
      client: stack.temporal.client,
      taskQueuePrefix: stack.api.config.temporal.taskQueuePrefix,
    };
    const swept = await sweepPendingLevelAnchors(em, gateway, createLogger('silent'), {
      olderThanSeconds: 0,
    });
    assert.equal(swept, 1, 'only the pending one');
    const items = await anchoredVersions(modelId);
    assert.equal(items.at(-1).number, version.number);
  });
});
