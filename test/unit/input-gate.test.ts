import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { resolveClientAddress, TrustedProxies } from '../../api/middleware/client-address.ts';
import { checkInput, inputProblems } from '../../api/validation.ts';
import { ConfigError, loadConfig } from '../../src/platform/config/config.ts';

const limits = { maxDepth: 32, maxObjectKeys: 1000 };

/** `{"a":{"a":…{}}}` with `levels` objects, built as text: JSON.stringify itself recurses. */
function nested(levels: number): unknown {
  return JSON.parse(`${'{"a":'.repeat(levels - 1)}{}${'}'.repeat(levels - 1)}`);
}

describe('the input gate', () => {
  test('names every string and key with NUL or a lone surrogate, in document order', () => {
    const body = {
      erp_metadata: { material_number: 'MAT\u00004711', order_id: 'PO-1' },
      items: [{ name: 'ok' }, { name: '\ud800' }],
      metadata: { 'lot\u0000': 'A1', fine: 'emoji 😀 is a surrogate pair' },
      tail: '\udc00x',
    };
    assert.deepEqual(
      inputProblems(body, 'body', limits).map((e) => [e.path, e.code]),
      [
        ['body.erp_metadata.material_number', 'nul_character'],
        ['body.items.1.name', 'unpaired_surrogate'],
        ['body.metadata.lot\\u0000', 'nul_character'],
        ['body.tail', 'unpaired_surrogate'],
      ],
    );
    assert.deepEqual(inputProblems({ a: 'fine', b: ['ü', 42, null, true] }, 'body', limits), []);
  });

  test('query and path values are held to the same rules', () => {
    assert.deepEqual(
      inputProblems({ tokenId: '1\u0000', tags: ['x', '\u0000'] }, 'query', limits).map((e) => e.path),
      ['query.tokenId', 'query.tags.1'],
    );
    assert.equal(inputProblems({ id: 'a\u0000' }, 'path', limits)[0]?.path, 'path.id');
  });

  test('nesting: 32 levels pass, 33 and 10,000 are refused naming the limit, without recursion', () => {
    assert.deepEqual(inputProblems(nested(32), 'body', limits), []);
    const [over] = inputProblems(nested(33), 'body', limits);
    assert.equal(over?.code, 'too_deep');
    assert.equal(over?.path, `body${'.a'.repeat(32)}`);
    assert.match(over?.message ?? '', /at most 32 levels/);
    const deep = inputProblems(nested(10_000), 'body', limits);
    assert.equal(deep.length, 1);
    assert.equal(deep[0]?.code, 'too_deep');
    const arrays = JSON.parse(`${'['.repeat(10_000)}${']'.repeat(10_000)}`);
    assert.equal(inputProblems(arrays, 'body', limits)[0]?.code, 'too_deep');
  });

  test('an object with more keys than the limit is refused; long arrays are not', () => {
    const wide = Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`k${i}`, i]));
    const [problem] = inputProblems({ metadata: wide }, 'body', limits);
    assert.equal(problem?.path, 'body.metadata');
    assert.equal(problem?.code, 'too_many_keys');
    assert.match(problem?.message ?? '', /1001 keys; at most 1000/);
    delete wide.k1000;
    assert.deepEqual(inputProblems({ metadata: wide }, 'body', limits), []);
    assert.deepEqual(
      inputProblems({ items: Array.from({ length: 10_000 }, () => ({ a: 'b' })) }, 'body', limits),
      [],
    );
  });

  test('checkInput throws one 400 validation_failed problem, at most 50 errors long', () => {
    const many = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`f${i}`, '\u0000']));
    assert.throws(
      () => checkInput(many, 'body', limits),
      (error: { status: number; code: string; errors: unknown[] }) => {
        assert.equal(error.status, 400);
        assert.equal(error.code, 'validation_failed');
        assert.equal(error.errors.length, 50);
        return true;
      },
    );
    const fine = { a: 1 };
    assert.equal(checkInput(fine, 'body', limits), fine);
  });
});

describe('the client address', () => {
  const none = new TrustedProxies([]);
  const proxies = new TrustedProxies(['10.0.0.0/8', '127.0.0.1', 'fd00::/8']);

  test('without trusted proxies it is the socket peer, whatever X-Forwarded-For says', () => {
    assert.equal(resolveClientAddress('203.0.113.9', '198.51.100.1', none), '203.0.113.9');
    assert.equal(resolveClientAddress('::ffff:203.0.113.9', '', none), '203.0.113.9');
    assert.equal(resolveClientAddress('127.0.0.1', '198.51.100.1', none), '127.0.0.1');
  });

  test('a peer that is not a trusted proxy is the client even when proxies are configured', () => {
    assert.equal(resolveClientAddress('203.0.113.9', '198.51.100.1', proxies), '203.0.113.9');
  });

  test('behind trusted proxies: the right-most entry that is not a trusted proxy', () => {
    assert.equal(resolveClientAddress('10.1.2.3', '198.51.100.1', proxies), '198.51.100.1');
    // The client wrote the left entries itself; the proxy appended the address it saw.
    assert.equal(
      resolveClientAddress('127.0.0.1', 'spoofed, 1.2.3.4, 198.51.100.7', proxies),
      '198.51.100.7',
    );
    assert.equal(resolveClientAddress('127.0.0.1', '198.51.100.7, 10.9.9.9', proxies), '198.51.100.7');
    assert.equal(resolveClientAddress('::ffff:127.0.0.1', '198.51.100.7:5123', proxies), '198.51.100.7');
    assert.equal(resolveClientAddress('fd00::1', '[2001:db8::7]:443', proxies), '2001:db8::7');
    assert.equal(resolveClientAddress('10.0.0.1', '10.0.0.2, 10.0.0.3', proxies), '10.0.0.2');
    assert.equal(resolveClientAddress('10.0.0.1', 'garbage', proxies), '10.0.0.1');
    assert.equal(resolveClientAddress('10.0.0.1', '', proxies), '10.0.0.1');
  });

  test('TRUSTED_PROXIES: IPs and CIDR blocks, off by default, anything else stops the start', () => {
    assert.deepEqual(loadConfig({}).trustedProxies, []);
    assert.deepEqual(loadConfig({ TRUSTED_PROXIES: ' 10.0.0.0/8, ::1 ,' }).trustedProxies, [
      '10.0.0.0/8',
      '::1',
    ]);
    for (const bad of ['10.0.0.0/33', 'proxy.internal', '10.0.0.1/8/1', '::1/129']) {
      assert.throws(
        () => loadConfig({ TRUSTED_PROXIES: bad }),
        (error: unknown) => error instanceof ConfigError && error.variables.includes('TRUSTED_PROXIES'),
        bad,
      );
    }
    const defaults = loadConfig({}).limits;
    assert.equal(defaults.jsonMaxDepth, 32);
    assert.equal(defaults.jsonMaxObjectKeys, 1000);
    assert.equal(defaults.bodyReadTimeoutMs, 10_000);
  });
});
