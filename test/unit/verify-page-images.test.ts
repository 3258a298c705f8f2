import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { pageCsp } from '../../api/routes/verify/send-page.ts';
import { pageImage } from '../../src/passport/views/page-image.ts';
import { ConfigError, loadConfig } from '../../src/platform/config/config.ts';

const CID = 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy';

/** The product image of the verification page: our origin, or a host the operator allowed (VERIFY_IMAGE_HOSTS). */
describe('the verification page’s product image', () => {
  const origins = (value: string) => loadConfig({ VERIFY_IMAGE_HOSTS: value }).page.imageOrigins;

  test('VERIFY_IMAGE_HOSTS: https origins only, normalised; unset: none', () => {
    assert.deepEqual(loadConfig({}).page.imageOrigins, []);
    assert.deepEqual(
      origins(' https://Images.Brand.example , https://cdn.example:8443/,https://images.brand.example'),
      ['https://images.brand.example', 'https://cdn.example:8443'],
    );
    for (const bad of [
      'http://images.brand.example',
      'https://cdn.example/images',
      'images.example',
      'https://u:p@cdn.example',
    ]) {
      assert.throws(
        () => origins(bad),
        (error: unknown) => error instanceof ConfigError && error.variables.includes('VERIFY_IMAGE_HOSTS'),
        bad,
      );
    }
  });

  test('IPFS through our gateway; an allowed origin as it is; anything else not shown', () => {
    const allowed = ['https://images.brand.example'];
    assert.equal(pageImage(`ipfs://${CID}`, allowed), `/ipfs/${CID}`);
    assert.equal(
      pageImage('https://images.brand.example/jackets/trail.webp?w=640', allowed),
      'https://images.brand.example/jackets/trail.webp?w=640',
    );
    assert.equal(pageImage('https://images.brand.example.evil.example/a.png', allowed), null);
    assert.equal(pageImage('http://images.brand.example/a.png', allowed), null, 'not over plain http');
    assert.equal(pageImage('https://user@images.brand.example/a.png', allowed), null);
    assert.equal(pageImage('https://images.brand.example:444/a.png', allowed), null, 'another port');
    assert.equal(pageImage('https://elsewhere.example/a.png', allowed), null);
    assert.equal(pageImage('https://elsewhere.example/a.png', []), null);
    assert.equal(pageImage(null, allowed), null);
  });

  test('the page’s CSP lets images come from those origins and nowhere else', () => {
    assert.match(pageCsp(), /(^|; )img-src 'self'(;|$)/);
    assert.match(
      pageCsp(['https://images.brand.example', 'https://cdn.example:8443']),
      /(^|; )img-src 'self' https:\/\/images\.brand\.example https:\/\/cdn\.example:8443;/,
    );
  });
});
