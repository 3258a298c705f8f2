import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { addBackupPeer } from '../../src/lifecycle/backup/backup-peers.ts';
import { httpPublicReader } from '../../src/lifecycle/backup/push-parts.ts';
import { startBackupPusher } from '../../src/lifecycle/backup/pusher.ts';
import { createLogger } from '../../src/platform/logging/logger.ts';
import { freePort } from '../../src/platform/runtime/ports.ts';
import { startTestApi, type TestApi, type TestTenant } from '../support/api.ts';
import { enrollAndMint } from '../support/fixtures/mint.ts';
import { GTIN, OTHER_GTIN } from '../support/fixtures/products.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts';
import { dppPath, shippingEvent } from './fixtures/dpp-reads.ts';

// The backup copy at an independent provider (docs/backup.md), with two instances, each on its own database: the
// primary (the whole stack) pushes every published version to the backup (an API instance) through a relay the
// test can cut; the backup serves the copies by Digital Link once the primary is gone.

const PEER = 'acme-primary';
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** `npm run cli -- …` against a database (and, for the pages it reads, the primary's public base). */
async function cli(args: string[], env: Record<string, string>): Promise<string> {
  const { stdout } = await promisify(execFile)('sh', ['scripts/node24.sh', 'scripts/cli.ts', ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'silent', ...env },
    timeout: 120_000,
  });
  return stdout;
}

describe('backup copy: a primary and its backup provider', () => {
  let backup: TestApi;
  let relay: TcpProxy;
  let primary: TestStack;
  let tenant: TestTenant;
  let pusher: { stop(): Promise<void> };

  beforeAll(async () => {
    backup = await startTestApi();
    const { token } = await addBackupPeer(backup.db.orm.em.fork(), PEER, 'Acme’s DPP provider');
    relay = await startTcpProxy(Number(new URL(backup.baseUrl).port));
    const port = await freePort();
    primary = await startTestStack({
      apiEnv: {
        PORT: String(port),
        PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
        BACKUP_PROVIDER_URL: relay.url,
        BACKUP_PROVIDER_TOKEN: token,
        BACKUP_PROVIDER_PEER_ID: PEER,
        BACKUP_PUBLIC_BASE_URL: backup.baseUrl,
      },
    });
    tenant = await primary.api.createTenant('Acme Apparel');
    // What the worker process runs (worker/worker-role.ts), here beside the stack.
    pusher = startBackupPusher({
      em: () => primary.api.db.orm.em.fork(),
      provider: primary.api.config.backup.provider!,
      read: httpPublicReader(primary.api.config.publicBaseUrl),
      logger: createLogger('silent'),
      stuckAfterMs: 600_000,
      everyMs: 250,
    });
  });
  afterAll(async () => {
    await pusher?.stop();
    await primary?.close();
    await relay?.close();
    await backup?.close();
  });

  const call = (method: string, path: string, body?: unknown) =>
    primary.api.call(method, path, { key: tenant.testKey, body });
  const dppIdOf = async (tokenId: string): Promise<string> => {
    const answer = await primary.api.call('GET', `/test/01/${GTIN}/21/${tokenId}?format=public`, {
      env: null,
    });
    assert.equal(answer.status, 200, answer.text);
    return answer.body.dppHeader.digitalProductPassportId;
  };
  const backupStatus = async (dppId: string) => {
    const answer = await call('GET', dppPath(dppId, '/backup'));
    assert.equal(answer.status, 200, answer.text);
    return answer.body;
  };
  const versionsOf = async (dppId: string) => {
    const answer = await call('GET', dppPath(dppId, '/versions'));
    assert.equal(answer.status, 200, answer.text);
    return answer.body.items as { number: number; sha256: string; publicSha256: string }[];
  };
  /** Waits (no time assertion: the machine is shared) until every version of the passport is acknowledged. */
  const acknowledged = async (dppId: string, timeoutMs = 120_000) => {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const status = await backupStatus(dppId);
      const versions = await versionsOf(dppId);
      if (status.state === 'acknowledged' && status.versions.length === versions.length)
        return { status, versions };
      if (Date.now() > until) assert.fail(`not acknowledged: ${JSON.stringify(status)}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };

  const tokens: string[] = [];

  test('a published passport is acknowledged by the backup with each version’s own hash', async () => {
    const tokenId = await enrollAndMint(call, '04B1B2B3B4B501');
    tokens.push(tokenId);
    const dppId = await dppIdOf(tokenId);
    const { status, versions } = await acknowledged(dppId);
    assert.equal(status.provider, 'configured');
    assert.equal(status.backupLink, `${backup.baseUrl}/backup/${PEER}/test/01/${GTIN}/21/${tokenId}`);
    for (const version of versions) {
      const pushed = status.versions.find((v: { number: number }) => v.number === version.number);
      assert.equal(pushed.status, 'acknowledged');
      assert.equal(pushed.acknowledgedSha256, version.sha256, 'acknowledged by the version’s hash');
    }
    const erp = await primary.api.call('GET', `/test/01/${GTIN}/21/${tokenId}?format=erp`, {
      env: null,
      key: tenant.testKey,
    });
    assert.equal(erp.status, 200, erp.text);
    assert.deepEqual(erp.body.backup, {
      state: 'acknowledged',
      latestAcknowledgedVersion: versions.at(-1)!.number,
      lastError: null,
    });
  });

  test('a model passport’s versions are pushed too, and its copy answers at the model’s backup link', async () => {
    const created = await call('POST', '/v1/dpps', {
      granularity: 'Model',
      gtin: OTHER_GTIN,
      'urn:dpp-service:spec:battery:1.0.0': {
        generalProductInformation: { manufacturerName: 'Voltaic Model Works', warrantyPeriod: 'P8Y' },
      },
    });
    assert.equal(created.status, 201, created.text);
    const modelId = created.body.digitalProductPassportId as string;
    const { status, versions } = await acknowledged(modelId);
    assert.equal(status.backupLink, `${backup.baseUrl}/backup/${PEER}/test/01/${OTHER_GTIN}`);
    const copy = await fetch(`${status.backupLink}?format=public`);
    assert.equal(copy.status, 200);
    assert.equal(sha256(await copy.text()), versions.at(-1)!.publicSha256);
    assert.equal(copy.headers.get('backup-version-sha256'), versions.at(-1)!.sha256);
    const page = await fetch(status.backupLink);
    assert.equal(page.status, 200, 'the model’s page, as the primary rendered it');
    assert.equal((await fetch(`${status.backupLink}?format=vc`)).status, 404, 'a level has no credential');
  });

  test('the backup down for a while: versions wait and show why, then every one is acknowledged', async () => {
    relay.cut();
    const [first] = tokens;
    const event = await call('POST', '/v1/iaas/log-event', { tokenId: first, ...shippingEvent('SHIPPED') });
    assert.equal(event.status, 201, event.text);
    const second = await enrollAndMint(call, '04B1B2B3B4B502');
    tokens.push(second);
    const firstId = await dppIdOf(first!);
    // The failure shows in the status while the backup is unreachable.
    for (let seen = false; !seen; ) {
      const status = await backupStatus(firstId);
      const failing = status.versions.find((v: { status: string; lastError: string | null }) => v.lastError);
      seen = status.state === 'pending' && failing !== undefined;
      if (!seen) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    relay.restore();
    for (const tokenId of tokens) {
      const { status, versions } = await acknowledged(await dppIdOf(tokenId));
      assert.deepEqual(
        status.versions.map((v: { acknowledgedSha256: string }) => v.acknowledgedSha256),
        versions.map((v) => v.sha256),
      );
    }
  });

  test('a tampered push is refused; a push without a peer credential is unauthorized', async () => {
    const document = {
      dppHeader: { digitalProductPassportId: 'urn:uuid:00000000-0000-4000-8000-000000000001' },
    };
    const { token } = await addBackupPeer(backup.db.orm.em.fork(), 'tamper-test');
    const push = {
      digitalLink: `/01/${GTIN}/21/999`,
      environment: 'live',
      version: {
        number: 1,
        createdAt: new Date().toISOString(),
        sha256: sha256('not the canonical form'),
        publicSha256: sha256('{}'),
      },
      document,
      publicDocument: {},
      page: null,
      credential: null,
    };
    const put = (body: unknown, key: string | null = token) =>
      fetch(`${backup.baseUrl}/backup/v1/copies`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
        body: JSON.stringify(body),
      });
    const tampered = await put(push);
    assert.equal(tampered.status, 422);
    assert.equal(((await tampered.json()) as { code: string }).code, 'hash_mismatch');
    assert.equal((await put(push, null)).status, 401);
    assert.equal((await put(push, 'bkp_not-a-registered-peer-credential')).status, 401);
    const held = await fetch(`${backup.baseUrl}/backup/tamper-test/01/${GTIN}/21/999?format=public`);
    assert.equal(held.status, 404, 'nothing refused is served');
  });

  test('the operator’s CLI: a peer registered at the backup, every version pushed to it at once', async () => {
    const added = await cli(['backup-peer:add', 'acme-by-cli', '--note', 'second provider id'], {
      DATABASE_URL: backup.db.url,
    });
    const token = added.trim().split('\n').at(-1)!.trim();
    assert.match(token, /^bkp_/);
    const listed = await cli(['backup-peer:list'], { DATABASE_URL: backup.db.url });
    assert.match(listed, /^acme-by-cli .* active/m);
    const pushed = await cli(
      ['backup:push', '--to', backup.baseUrl, '--token', token, '--peer', 'acme-by-cli'],
      {
        DATABASE_URL: primary.api.db.url,
        PUBLIC_BASE_URL: primary.api.config.publicBaseUrl,
      },
    );
    assert.match(pushed, /pending 0 {2}refused 0/, pushed);
    const dppId = await dppIdOf(tokens[0]!);
    const latest = (await versionsOf(dppId)).at(-1)!;
    const copy = await fetch(
      `${backup.baseUrl}/backup/acme-by-cli/test/01/${GTIN}/21/${tokens[0]}?format=public`,
    );
    assert.equal(copy.headers.get('backup-copy-of'), 'acme-by-cli');
    assert.equal(sha256(await copy.text()), latest.publicSha256);
  });

  test('the primary stopped: the backup answers each Digital Link with the same bytes and hashes', async () => {
    const expected = [];
    for (const tokenId of tokens) {
      const dppId = await dppIdOf(tokenId);
      const { versions } = await acknowledged(dppId);
      const vc = await primary.api.call('GET', `/test/01/${GTIN}/21/${tokenId}?format=vc`, { env: null });
      assert.equal(vc.status, 200, vc.text);
      expected.push({ tokenId, latest: versions.at(-1)!, vc: vc.text });
    }
    await primary.api.http.close(0);
    const gone = await fetch(`${primary.api.baseUrl}/test/01/${GTIN}/21/${tokens[0]}`).catch(() => undefined);
    assert.equal(gone, undefined, 'the primary no longer answers');
    for (const { tokenId, latest, vc } of expected) {
      const link = `${backup.baseUrl}/backup/${PEER}/test/01/${GTIN}/21/${tokenId}`;
      const document = await fetch(link, { headers: { accept: 'application/json' } });
      assert.equal(document.status, 200);
      const body = await document.text();
      assert.equal(sha256(body), latest.publicSha256, 'the public document’s hash is the version’s');
      assert.equal(document.headers.get('backup-copy-of'), PEER);
      assert.equal(document.headers.get('backup-version'), String(latest.number));
      assert.equal(document.headers.get('backup-version-sha256'), latest.sha256);
      const credential = await fetch(`${link}?format=vc`);
      assert.equal(await credential.text(), vc, 'the signed credential, byte for byte');
      const page = await fetch(link);
      assert.equal(page.status, 200);
      assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
      assert.match(await page.text(), new RegExp(tokenId));
      assert.equal(page.headers.get('backup-copy-of'), PEER);
    }
  });
});
