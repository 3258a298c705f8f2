import assert from 'node:assert/strict';
import { request } from 'node:http';
import { describe, test } from 'vitest';
import { DomainError } from '../../src/platform/errors.ts';
import {
  checkWebhookUrlForRegistration,
  isForbiddenAddress,
  pinnedLookup,
  type Resolver,
  urlPolicyFor,
  vetWebhookUrl,
  webhookUrlSyntaxProblem,
} from '../../src/webhooks/url-safety.ts';

const strict = { allowPrivate: false };
const resolvesTo =
  (...addresses: string[]): Resolver =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

async function refusal(promise: Promise<unknown>): Promise<DomainError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof DomainError, String(error));
    return error;
  }
  assert.fail('expected a refusal');
}

describe('webhook URL safety', () => {
  test('non-public addresses are forbidden, public ones are not', () => {
    const forbidden = [
      '127.0.0.1',
      '127.255.0.9',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '169.254.1.1',
      '100.64.0.1',
      '100.127.255.255',
      '0.0.0.0',
      '0.1.2.3',
      '224.0.0.1',
      '239.255.255.250',
      '255.255.255.255',
      '::1',
      '::',
      'fc00::1',
      'fd00:ec2::254',
      'fe80::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:169.254.169.254',
      '::ffff:a00:1',
      // IPv6 forms embedding a non-public IPv4 (issue 20.10)
      '::a9fe:a9fe', // IPv4-compatible ::/96
      '::127.0.0.1',
      '::ffff:0:a9fe:a9fe', // SIIT ::ffff:0:0:0/96
      '::ffff:0:10.0.0.1',
      '64:ff9b::a9fe:a9fe', // NAT64 64:ff9b::/96
      '64:ff9b::127.0.0.1',
      '64:ff9b:1::5db8:d70e', // local-use NAT64: the embedding is the operator's, refused whatever it holds
      '2002:a9fe:a9fe::1', // 6to4
      '2002:7f00:1::',
      '2001:0:a9fe:a9fe::1', // Teredo: link-local server
      '2001:0:5db8:d70e:0:0:f5ff:fffe', // Teredo: public server, client ~f5ff:fffe = 10.0.0.1
      // cloud metadata services
      '169.254.169.254',
      '168.63.129.16',
      '100.100.100.200',
      'fd00:ec2::254',
      '::ffff:168.63.129.16',
      '64:ff9b::a83f:8110', // NAT64 of 168.63.129.16
      'fe80::1%eth0',
      '::1:0:0:1', // reserved ::/8 outside the IPv4-embedding forms
      '100::1', // discard-only
      'not-an-ip',
    ];
    for (const address of forbidden) assert.equal(isForbiddenAddress(address), true, address);
    const allowed = [
      '93.184.215.14',
      '8.8.8.8',
      '172.32.0.1',
      '100.128.0.1',
      '2606:4700::1111',
      '::ffff:8.8.8.8',
      '::5db8:d70e', // IPv4-compatible, public 93.184.215.14
      '::ffff:0:8.8.8.8',
      '64:ff9b::808:808',
      '2002:5db8:d70e::1',
      '2001:0:5db8:d70e:0:0:a2db:29f1', // Teredo: public server and client (93.36.214.14)
      '168.63.129.17',
    ];
    for (const address of allowed) assert.equal(isForbiddenAddress(address), false, address);
  });

  test('syntax: http(s) only, no credentials, at most 2048 characters', () => {
    assert.equal(webhookUrlSyntaxProblem('https://hooks.example.com/dpp'), undefined);
    assert.equal(webhookUrlSyntaxProblem('http://hooks.example.com:8080/x?y=1'), undefined);
    for (const bad of [
      'ftp://example.com/x',
      'javascript:alert(1)',
      'file:///etc/passwd',
      'not a url',
      '/relative',
    ]) {
      assert.ok(webhookUrlSyntaxProblem(bad), bad);
    }
    assert.match(webhookUrlSyntaxProblem('https://user:pass@example.com/')!, /credentials/);
    assert.match(webhookUrlSyntaxProblem('https://user@example.com/')!, /credentials/);
    const long = `https://example.com/${'a'.repeat(2048)}`;
    assert.match(webhookUrlSyntaxProblem(long)!, /2048/);
    assert.equal(webhookUrlSyntaxProblem(`https://example.com/${'a'.repeat(2048 - 20)}`), undefined);
  });

  test('live refuses hosts resolving to any forbidden address, including literals and mixed answers', async () => {
    for (const url of [
      'http://127.0.0.1/x',
      'http://[::1]:8080/',
      'http://169.254.169.254/latest',
      'http://[fd00:ec2::254]/',
    ]) {
      const error = await refusal(vetWebhookUrl(url, strict));
      assert.equal(error.code, 'webhook_url_not_allowed');
      assert.equal(error.kind, 'rejected');
    }
    const mixed = await refusal(
      vetWebhookUrl('https://rebind.example/', strict, resolvesTo('93.184.215.14', '10.0.0.5')),
    );
    assert.match(mixed.message, /10\.0\.0\.5/);
    const ok = await vetWebhookUrl('https://hooks.example/', strict, resolvesTo('93.184.215.14'));
    assert.deepEqual(ok.addresses, [{ address: '93.184.215.14', family: 4 }]);
    const unresolvable = await refusal(
      vetWebhookUrl('https://nowhere.invalid/', strict, async () => {
        throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
      }),
    );
    assert.match(unresolvable.message, /ENOTFOUND/);
  });

  test('the system resolver is used by default: localhost is refused in live', async () => {
    const error = await refusal(vetWebhookUrl('http://localhost:9999/hook', strict));
    assert.equal(error.code, 'webhook_url_not_allowed');
  });

  test('policy: private targets only in test and only while the flag allows them', async () => {
    assert.deepEqual(urlPolicyFor('test', true), { allowPrivate: true });
    assert.deepEqual(urlPolicyFor('test', false), { allowPrivate: false });
    assert.deepEqual(urlPolicyFor('live', true), { allowPrivate: false });
    await checkWebhookUrlForRegistration('http://127.0.0.1:4000/hook', urlPolicyFor('test', true));
    await checkWebhookUrlForRegistration(
      'http://receiver.local.test/hook',
      urlPolicyFor('test', true),
      async () => {
        throw new Error('must not resolve when private targets are allowed');
      },
    );
    await refusal(checkWebhookUrlForRegistration('http://127.0.0.1:4000/hook', urlPolicyFor('test', false)));
    await refusal(checkWebhookUrlForRegistration('ftp://example.com/', urlPolicyFor('test', true)));
  });

  test('pinnedLookup makes a request connect to the vetted address while keeping the Host header', async () => {
    const { createServer } = await import('node:http');
    const server = createServer((req, res) => res.end(req.headers.host));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      const hostSeen = await new Promise<string>((resolve, reject) => {
        const req = request(
          `http://hooks.example.invalid:${port}/x`,
          { lookup: pinnedLookup({ address: '127.0.0.1', family: 4 }) as never },
          (res) => {
            let text = '';
            res.on('data', (chunk) => {
              text += chunk;
            });
            res.on('end', () => resolve(text));
          },
        );
        req.on('error', reject);
        req.end();
      });
      assert.equal(hostSeen, `hooks.example.invalid:${port}`);
    } finally {
      server.close();
    }
  });
});
