import assert from 'node:assert/strict';
import { createServer as createHttpServer, request } from 'node:http';
import { createServer as createTcpServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { discover } from '../../src/accounts/sso/oidc-client.ts';
import { outboundFetch } from '../../src/accounts/sso/outbound.ts';
import {
  pinnedFetch,
  type Resolver,
  resolveVetted,
  type VettedAddress,
} from '../../src/adapters/http/pinned-request.ts';
import { DomainError } from '../../src/platform/errors.ts';
import { postWebhook, privateAnswerExcerpt } from '../../src/webhooks/http-post.ts';

/**
 * DNS rebinding: a name answers a public address to the check and an internal one a moment later. Two local
 * addresses stand in for the two answers: 127.0.0.2 plays the public address the check accepts (the policy's
 * address test is injected to treat only 127.0.0.1 as internal), 127.0.0.1 the internal service. Both listen
 * on the same port, so only the address the socket connects to decides who answers.
 */
const CHECKED = '127.0.0.2';
const INTERNAL = '127.0.0.1';
const onlyInternalIsForbidden = (address: string) => address === INTERNAL;

/** First lookup: the public (checked) address; every later lookup: the internal one. */
function rebindingResolver(): Resolver & { calls: number } {
  const resolver = Object.assign(
    async (): Promise<VettedAddress[]> => {
      resolver.calls += 1;
      return [{ address: resolver.calls === 1 ? CHECKED : INTERNAL, family: 4 }];
    },
    { calls: 0 },
  );
  return resolver;
}

function listen(server: Server | ReturnType<typeof createHttpServer>, host: string, port: number) {
  return new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve((server.address() as { port: number }).port));
  });
}

describe('outbound requests connect to the address that was checked, never to a second DNS answer', () => {
  const seen = { checked: 0, internal: 0 };
  const servers: { close(): void }[] = [];
  let port = 0;
  let tlsPort = 0;
  const tlsSeen = { checked: 0, internal: 0 };

  beforeAll(async () => {
    const answering = (who: 'checked' | 'internal') =>
      createHttpServer((req, res) => {
        seen[who] += 1;
        req.resume();
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ who, host: req.headers.host }));
      });
    const checked = answering('checked');
    const internal = answering('internal');
    servers.push(checked, internal);
    port = await listen(checked, CHECKED, 0);
    await listen(internal, INTERNAL, port);
    // For https (SSO): plain TCP listeners that only count who is connected to.
    const counting = (who: 'checked' | 'internal') =>
      createTcpServer((socket) => {
        tlsSeen[who] += 1;
        socket.destroy();
      });
    const tlsChecked = counting('checked');
    const tlsInternal = counting('internal');
    servers.push(tlsChecked, tlsInternal);
    tlsPort = await listen(tlsChecked, CHECKED, 0);
    await listen(tlsInternal, INTERNAL, tlsPort);
  });
  afterAll(() => {
    for (const server of servers) server.close();
  });

  test('control: resolving again at connect time (what a plain fetch does after the check) reaches the internal service', async () => {
    const resolver = rebindingResolver();
    const [first] = await resolver('rebind.test');
    assert.equal(onlyInternalIsForbidden(first!.address), false, 'the check passes');
    const [second] = await resolver('rebind.test');
    const who = await new Promise<string>((resolve, reject) => {
      request({ host: second!.address, port, path: '/', headers: { host: `rebind.test:${port}` } }, (res) => {
        let text = '';
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () => resolve((JSON.parse(text) as { who: string }).who));
      })
        .on('error', reject)
        .end();
    });
    assert.equal(who, 'internal', 'the test setup does rebind');
  });

  test('the shared pinned fetch: one lookup, the checked address answers, the internal one is never reached', async () => {
    const resolver = rebindingResolver();
    const before = { ...seen };
    const response = await pinnedFetch(
      new URL(`http://rebind.test:${port}/.well-known/openid-configuration`),
      { allowPrivate: false, resolver, isForbidden: onlyInternalIsForbidden },
      { timeoutMs: 5_000 },
    );
    assert.deepEqual(await response.json(), { who: 'checked', host: `rebind.test:${port}` });
    assert.equal(resolver.calls, 1, 'DNS is asked once, by the check');
    assert.equal(seen.internal, before.internal, 'the internal service saw no request');
    assert.equal(seen.checked, before.checked + 1);
  });

  test('webhook deliveries: posted to the vetted address, the host is never looked up again', async () => {
    const resolver = rebindingResolver();
    const before = { ...seen };
    const url = new URL(`http://rebind.test:${port}/hook`);
    // What vetWebhookUrl does (src/webhooks/url-safety.ts), with the test's address classification.
    const [address] = await resolveVetted(url, {
      allowPrivate: false,
      resolver,
      isForbidden: onlyInternalIsForbidden,
    });
    const response = await postWebhook({
      url,
      body: '{}',
      headers: { 'content-type': 'application/json' },
      address: address!,
      timeoutMs: 5_000,
      maxSnippetBytes: 2048,
    });
    assert.equal(response.statusCode, 200);
    assert.match(response.snippet!, /"who":"checked"/);
    assert.equal(response.remoteAddress, CHECKED);
    assert.equal(resolver.calls, 1);
    assert.equal(seen.internal, before.internal, 'the internal service saw no request');
  });

  test('SSO issuer discovery over https: the connection goes to the checked address only', async () => {
    const resolver = rebindingResolver();
    const before = { ...tlsSeen };
    const policy = { allowPrivate: false, resolver, isForbidden: onlyInternalIsForbidden };
    // Our counting listener is not a TLS server: the request fails after connecting, which is all we look at.
    await assert.rejects(
      discover(`https://idp.rebind.test:${tlsPort}`, policy),
      (error: unknown) => error instanceof DomainError && error.code === 'identity_provider_unavailable',
    );
    await assert.rejects(
      outboundFetch(`https://idp.rebind.test:${tlsPort}/jwks`, policy),
      (error: unknown) => error instanceof DomainError && error.code === 'sso_url_not_allowed',
    );
    assert.equal(resolver.calls, 2, 'one lookup per request, each by its check');
    // The first request checked and used 127.0.0.2; the second request's check got the internal answer and
    // was refused before connecting.
    assert.equal(tlsSeen.checked, before.checked + 1);
    assert.equal(tlsSeen.internal, before.internal, 'the internal service saw no connection');
  });
});

describe('a host with several vetted answers', () => {
  test('the connection may use any of them (happy eyeballs), and only them', async () => {
    const server = createHttpServer((_req, res) => res.end('v4 only'));
    const port = await listen(server, '127.0.0.1', 0);
    try {
      // ::1 first: nothing listens there (or IPv6 is off); the second vetted answer is tried next.
      const response = await pinnedFetch(
        new URL(`http://dual.test:${port}/`),
        {
          allowPrivate: true,
          resolver: async () => [
            { address: '::1', family: 6 },
            { address: '127.0.0.1', family: 4 },
          ],
        },
        { timeoutMs: 5_000 },
      );
      assert.equal(await response.text(), 'v4 only');
    } finally {
      server.close();
    }
  });
});

describe('what a delivery keeps of an answer', () => {
  test('a public receiver: up to 2 KiB as sent; a non-public one: 200 printable characters', async () => {
    const body = `line one\r\n\tline\u0000two ${'é'.repeat(3000)}`;
    const server = createHttpServer((_req, res) => res.end(body));
    const port = await listen(server, '127.0.0.1', 0);
    try {
      const response = await postWebhook({
        url: new URL(`http://receiver.test:${port}/hook`),
        body: '{}',
        headers: {},
        address: { address: '127.0.0.1', family: 4 },
        timeoutMs: 5_000,
        maxSnippetBytes: 2048,
      });
      assert.equal(Buffer.byteLength(response.snippet!), 2048 - 1, 'NUL dropped, as PostgreSQL needs');
    } finally {
      server.close();
    }
    const excerpt = privateAnswerExcerpt(body);
    assert.equal(excerpt, `line one line two ${'é'.repeat(200 - 'line one line two '.length)}`);
    assert.equal(Array.from(excerpt).length, 200);
  });
});
