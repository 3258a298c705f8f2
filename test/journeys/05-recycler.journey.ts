import assert from 'node:assert/strict';
import { Wallet } from 'ethers';
import { describe, test } from 'vitest';
import { http, ok, stack } from './client.ts';
import { JOURNEY_GTIN, recall } from './shared.ts';

type Passports = { tokenId: string; chipUid: string }[];

// End of life: the recycler's intake logs the product recycled, the circular deposit goes to the recycler's
// wallet, and everyone reading the passport sees it recycled; recycling twice is refused.
describe('a recycler takes a product back', () => {
  test('log-recycle → deposit released → the page, the public document and the credential say RECYCLED', async () => {
    const passports = await recall<Passports>('passports');
    const passport = passports[4]!;
    const recycler = Wallet.createRandom().address;
    const call = (method: string, path: string, body?: unknown) =>
      http(method, path, { key: stack().demoKey, ...(body === undefined ? {} : { body }) });
    const intake = {
      tokenId: passport.tokenId,
      locationName: 'Hamburg Recycling Hub',
      latitude: 53.546,
      longitude: 9.966,
      rewardReceiver: recycler,
    };
    const recycled = await ok(call('POST', '/v1/iaas/log-recycle', intake), 'log-recycle');
    assert.equal(recycled.recycled, true, JSON.stringify(recycled));
    assert.match(recycled.releasedDeposit, /ETH$/);

    const again = await call('POST', '/v1/iaas/log-recycle', intake);
    assert.equal(again.status, 409, again.text);

    const pub = await ok(
      http('GET', `/test/01/${JOURNEY_GTIN}/21/${passport.tokenId}?format=public`, { env: null }),
      'public',
    );
    assert.equal(pub.status, 'RECYCLED');
    const page = await http('GET', `/test/verify/01/${JOURNEY_GTIN}/21/${passport.tokenId}`, {
      env: null,
      headers: { accept: 'text/html' },
    });
    assert.match(page.text, /[Rr]ecycled/);
  });
});
