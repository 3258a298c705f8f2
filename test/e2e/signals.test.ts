import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { generateSun } from '../../src/standards/sun/index.ts';
import { verifyServiceSignature } from '../../src/webhooks/signing.ts';
import type { TestTenant } from '../support/api.ts';
import { enrollAndMint } from '../support/fixtures/mint.ts';
import { GTIN } from '../support/fixtures/products.ts';
import { SUN_KEYS, tapQuery, verifyChipBody } from '../support/fixtures/sun.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';
import { type Receiver, startReceiver } from '../webhooks/support.ts';

// biome-ignore lint/suspicious/noExplicitAny: JSON as served
type Json = any;

/**
 * Counterfeit signals on the running stack (docs/signals.md): each raised once per occurrence with its evidence,
 * listed by the API, sent as a signed asset.suspicious_activity; the page tells the consumer of a link opened
 * many times.
 */
describe('counterfeit signals from the chips’ taps', () => {
  let stack: TestStack;
  let brand: TestTenant;
  let other: TestTenant;
  let receiver: Receiver;
  let secret: string;
  const call = (method: string, path: string, body?: unknown, tenant = brand) =>
    stack.api.call(method, path, { key: tenant.testKey, body });
  const signals = async (query = '') =>
    (await call('GET', `/v1/dpp/signals?status=all${query}`)).body.signals as Json[];
  const ofType = async (type: string) => (await signals()).filter((s) => s.type === type);
  const events = () =>
    receiver.requests
      .map((r) => ({ request: r, body: JSON.parse(r.body) as Json }))
      .filter(
        (e) =>
          e.body.eventType === 'asset.suspicious_activity' || e.body.type === 'asset.suspicious_activity',
      );
  const eventsOf = (type: string) =>
    events().filter((e) => (e.body.data ?? e.body.payload)?.signalType === type);
  const openTap = async (tokenId: string, query: string) => {
    const first = await stack.api.call('GET', `/01/${GTIN}/21/${tokenId}?${query}`);
    assert.equal(first.status, 307, first.text);
    return stack.api.call('GET', first.headers.get('location')!);
  };
  async function until<T>(read: () => Promise<T | undefined> | T | undefined, ms = 20_000): Promise<T> {
    const end = Date.now() + ms;
    for (;;) {
      const value = await read();
      if (value !== undefined) return value;
      if (Date.now() > end) throw new Error('timed out');
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  beforeAll(async () => {
    stack = await startTestStack();
    brand = await stack.api.createTenant('Signal Outdoor');
    other = await stack.api.createTenant('Someone Else');
    receiver = await startReceiver();
    const endpoint = await call('POST', '/v1/webhooks/endpoints', {
      url: receiver.url,
      eventTypes: ['asset.suspicious_activity'],
    });
    assert.equal(endpoint.status, 201, endpoint.text);
    secret = endpoint.body.secret;
  }, 600_000);
  afterAll(async () => {
    await receiver?.close();
    await stack?.close();
  });

  test('a copied link opened five times: one signal with its evidence, one signed webhook, the page says so', async () => {
    const chip = '04A1C0DE000001';
    const tokenId = await enrollAndMint((m, p, b) => call(m, p, b), chip);
    const copied = tapQuery(chip, 2);
    const verdicts: string[] = [];
    for (let i = 0; i < 6; i++) {
      const page = await openTap(tokenId, copied);
      verdicts.push(/data-verdict="(\w+)"/.exec(page.text)![1]!);
      if (i === 5) {
        assert.match(page.text, /id="reopen-notice" data-openings="6"/);
        assert.match(page.text, /This link was opened 6 times since/);
      }
      if (i === 1) assert.doesNotMatch(page.text, /reopen-notice/, 'two openings: no notice yet');
    }
    assert.deepEqual(verdicts, ['authentic', 'replayed', 'replayed', 'replayed', 'replayed', 'replayed']);
    const [signal, ...more] = await ofType('copied_url_reopened');
    assert.equal(more.length, 0, 'raised once for the occurrence');
    assert.equal(signal!.severity, 'high');
    assert.equal(signal!.tokenId, tokenId);
    assert.equal(signal!.chipUid, chip);
    assert.equal(signal!.evidence.counter, 2);
    assert.equal(signal!.evidence.openings, 6, 'the evidence follows the sixth opening');
    assert.equal(signal!.evidence.distinctClients, 1);
    assert.equal(signal!.evidence.seen, 2, 'raised at the fifth opening, updated at the sixth');
    assert.equal(typeof signal!.evidence.firstOpenedAt, 'string');
    await until(() => (eventsOf('copied_url_reopened').length > 0 ? true : undefined));
    await new Promise((r) => setTimeout(r, 1_000));
    const delivered = eventsOf('copied_url_reopened');
    assert.equal(delivered.length, 1, 'one webhook for the occurrence');
    const { request, body } = delivered[0]!;
    assert.ok(verifyServiceSignature(String(request.headers['service-signature']), request.body, secret));
    const data = body.data ?? body.payload;
    assert.equal(data.signalId, signal!.id);
    assert.equal(data.tokenId, tokenId);
    assert.equal(data.evidence.openings, 5);
    const erp = await call('GET', `/01/${GTIN}/21/${tokenId}?format=erp`);
    assert.deepEqual(
      (erp.body.signals as Json[]).map((s) => [s.type, s.evidence.openings]),
      [['copied_url_reopened', 6]],
      'the ERP view carries the passport’s open signals',
    );
    const perPassport = (await call('GET', `/v1/dpp/signals?tokenId=${tokenId}`)).body.signals as Json[];
    assert.deepEqual(
      perPassport.map((s) => s.id),
      [signal!.id],
    );
    // A cursor that is not one the API gave (the fuzzer's `0|…`, a day February does not have): 400, never 500.
    for (const after of [
      '0|00000000-0000-0000-0000-000000000000',
      `2026-02-31T00:00:00.000Z|${signal!.id}`,
    ]) {
      const refused = await call('GET', `/v1/dpp/signals?after=${encodeURIComponent(after)}`);
      assert.equal(refused.status, 400, `${after}: ${refused.text}`);
    }
  }, 120_000);

  test('a counter jump, a burst and taps after revocation: each once, with evidence', async () => {
    const chip = '04A1C0DE000002';
    const tokenId = await enrollAndMint((m, p, b) => call(m, p, b), chip);
    const settings = await call('PUT', '/v1/dpp/signal-settings', {
      burstTaps: 3,
      counterJumpThreshold: 100,
    });
    assert.equal(settings.status, 200, settings.text);
    assert.equal(settings.body.reopenThreshold, 5, 'left out: kept');
    const verify = async (counter: number) => {
      const answer = await call('POST', '/v1/dpp/verify-chip', verifyChipBody(chip, counter));
      assert.equal(answer.body.authentic, true, answer.text);
    };
    await verify(2);
    await verify(3); // the mint's tap, 2 and 3: the burst's third genuine tap
    await verify(4);
    const [burst, ...moreBursts] = await ofType('verification_burst');
    assert.equal(moreBursts.length, 0);
    assert.equal(burst!.evidence.taps, 4, 'the ongoing burst’s evidence follows');
    await verify(500);
    await verify(501);
    const jumps = await ofType('counter_jump');
    assert.equal(jumps.length, 1);
    assert.deepEqual(
      [jumps[0]!.evidence.previousCounter, jumps[0]!.evidence.counter, jumps[0]!.evidence.jump],
      [4, 500, 496],
    );
    const revoked = await call('POST', '/v1/dpp/revoke', { tokenId, reason: 'Reported stolen' });
    assert.equal(revoked.status, 200, revoked.text);
    await verify(502);
    await verify(503);
    const ended = await ofType('tap_after_end_of_life');
    assert.equal(ended.length, 1);
    assert.equal(ended[0]!.evidence.passportStatus, 'REVOKED');
    assert.equal(ended[0]!.evidence.seen, 2);
    await until(() =>
      eventsOf('counter_jump').length === 1 && eventsOf('tap_after_end_of_life').length === 1
        ? true
        : undefined,
    );
    await call('PUT', '/v1/dpp/signal-settings', { burstTaps: 20, counterJumpThreshold: 1000 });
  }, 120_000);

  test('an NTAG 424 DNA TT chip with its loop open: tamper_open from the SUN message; closed: none', async () => {
    const tt = (uid: string, counter: number, status: string) => {
      const tap = generateSun({
        uid,
        counter,
        keys: SUN_KEYS,
        fileData: Buffer.from(status.padEnd(16, '0')),
      });
      return { chipUid: uid, piccData: tap.piccData, cmac: tap.cmac, enc: tap.encFileData };
    };
    for (const uid of ['04A1C0DE0000A1', '04A1C0DE0000A2']) {
      const enrolled = await call('POST', '/v1/dpp/enroll', { chipUid: uid, chipType: 'NTAG 424 DNA TT' });
      assert.equal(enrolled.status, 201, enrolled.text);
    }
    assert.equal(
      (await call('POST', '/v1/dpp/verify-chip', tt('04A1C0DE0000A1', 1, 'CC'))).body.authentic,
      true,
    );
    const open = await call('POST', '/v1/dpp/verify-chip', tt('04A1C0DE0000A2', 1, 'OO'));
    assert.equal(open.body.authentic, true, open.text);
    assert.equal(open.body.chipType, 'NTAG 424 DNA TT');
    await call('POST', '/v1/dpp/verify-chip', tt('04A1C0DE0000A2', 2, 'OC'));
    const tampered = await ofType('tamper_open');
    assert.deepEqual(
      tampered.map((s) => s.chipUid),
      ['04A1C0DE0000A2'],
    );
    assert.equal(tampered[0]!.evidence.permanent, 'open');
    assert.equal(tampered[0]!.evidence.seen, 2);
  }, 60_000);

  test('the same chip UID enrolled by another company: the holder hears it; resolving is the company’s', async () => {
    const chip = '04A1C0DE000003';
    assert.equal((await call('POST', '/v1/dpp/enroll', { chipUid: chip })).status, 201);
    for (let i = 0; i < 2; i++) {
      const refused = await call('POST', '/v1/dpp/enroll', { chipUid: chip }, other);
      assert.equal(refused.status, 409);
    }
    const [signal, ...more] = await ofType('chip_enrolled_elsewhere');
    assert.equal(more.length, 0);
    assert.equal(signal!.chipUid, chip);
    assert.equal(signal!.evidence.seen, 2);
    assert.doesNotMatch(JSON.stringify(signal), new RegExp(other.companyId ?? 'no-company-id'));
    assert.deepEqual((await call('GET', '/v1/dpp/signals?status=all', undefined, other)).body.signals, []);
    const foreign = await call('POST', `/v1/dpp/signals/${signal!.id}/resolve`, undefined, other);
    assert.equal(foreign.status, 404);
    const resolved = await call('POST', `/v1/dpp/signals/${signal!.id}/resolve`);
    assert.equal(resolved.status, 200, resolved.text);
    assert.equal(resolved.body.signal.resolved, true);
    assert.match(resolved.body.signal.resolvedBy, /^api-key:/);
    const open = (await call('GET', '/v1/dpp/signals')).body.signals as Json[];
    assert.ok(!open.some((s) => s.id === signal!.id), 'resolved: not among the open ones');
    await until(() => (eventsOf('chip_enrolled_elsewhere').length === 1 ? true : undefined));
  }, 60_000);
});
