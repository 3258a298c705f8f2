import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { verifyTap } from '../../src/chips/verify-tap.ts';
import { scopedEntityManager, type TenantScope } from '../../src/platform/db/tenant-scope.ts';
import { SecretBox } from '../../src/platform/secret-box.ts';
import { startTestApi, type TestApi, type TestTenant } from '../support/api.ts';
import { sunTap } from '../support/fixtures/sun.ts';

const CHIPS = 10;
const TAPS_PER_CHIP = 300;
const YEARS = 3;
const DAY = 86_400_000;

/** A small seeded generator (mulberry32), so a failure replays exactly. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * Ordinary lives of passports (docs/signals.md): owners tapping their product a few hundred times over three
 * years, at the default thresholds — the phone sometimes reads the tag without opening the link (the counter
 * moves by more than one), the owner reopens a tap's page from the browser's history once or twice, shows the
 * tag off a few times in a row, a household member taps it from another phone. None of it is a counterfeit, so
 * none may raise a signal.
 */
describe('ordinary lives raise no signal', () => {
  let api: TestApi;
  let brand: TestTenant;

  beforeAll(async () => {
    api = await startTestApi();
    brand = await api.createTenant('Everyday Goods');
  });
  afterAll(async () => {
    await api?.close();
  });

  test(`${CHIPS} chips × ${TAPS_PER_CHIP} owner taps over ${YEARS} years: no signal`, async () => {
    const scope: TenantScope = { companyId: brand.companyId, environment: 'test' };
    const em = () => scopedEntityManager(api.db.orm.em, scope);
    const box = new SecretBox(undefined);
    const next = random(38);
    let readings = 0;
    let reopenings = 0;
    for (let c = 0; c < CHIPS; c++) {
      const uid = `04CAFE${String(c).padStart(8, '0')}`;
      const enrolled = await api.call('POST', '/v1/dpp/enroll', {
        key: brand.testKey,
        body: { chipUid: uid },
      });
      assert.equal(enrolled.status, 201, enrolled.text);
      let counter = 0;
      let at = Date.UTC(2027, 0, 1) + next() * DAY;
      const meanGap = (YEARS * 365 * DAY) / TAPS_PER_CHIP;
      const read = async (query: { counter: number; time: number; client: string }) => {
        readings++;
        return verifyTap(em(), box, scope, {
          chipUid: uid,
          sun: sunTap(uid, query.counter),
          client: query.client,
          at: new Date(query.time),
        });
      };
      for (let t = 0; t < TAPS_PER_CHIP; t++) {
        // Mostly days apart; now and then a few taps within minutes (showing it to someone).
        at += next() < 0.05 ? next() * 5 * 60_000 : -Math.log(1 - next()) * meanGap;
        // The phone read the tag without opening the link: the counter moves on unseen.
        counter += next() < 0.1 ? 1 + Math.floor(next() * 10) : 1;
        const client = next() < 0.15 ? 'household-phone' : 'owner-phone';
        const tapped = await read({ counter, time: at, client });
        assert.equal(tapped.authentic, true);
        // The page reopened from the browser's history, once or twice, minutes to days later.
        if (next() < 0.15) {
          const again = 1 + Math.floor(next() * 2);
          for (let r = 0; r < again; r++) {
            reopenings++;
            const replayed = await read({ counter, time: at + next() * 2 * DAY, client });
            assert.equal(replayed.authentic, false);
          }
        }
      }
    }
    const raised = await api.db.orm.em
      .fork()
      .execute<{ type: string; n: number }[]>(
        'select type, count(*)::int as n from chip_signals where company_id = ? group by type',
        [brand.companyId],
      );
    console.log(
      `ordinary lives: ${CHIPS} chips, ${readings} readings (${reopenings} reopenings of a used link), ` +
        `${raised.reduce((sum, row) => sum + row.n, 0)} signals`,
    );
    assert.deepEqual(raised, [], 'no signal from ordinary lives');
  }, 600_000);
});
