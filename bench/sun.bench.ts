import { FACTORY_DEFAULT_KEY, generateSun, verifySun } from '../src/sun/index.ts';
import { startTestApi } from '../test/support/api.ts';
import { rate, report } from './setup.ts';

const keys = { metaReadKey: FACTORY_DEFAULT_KEY, fileReadKey: FACTORY_DEFAULT_KEY };

/** SUN verifications: the pure crypto (baseline) against verify-chip over HTTP with replay protection. */
export async function benchSun(): Promise<void> {
  const uid = '04BE0000000001';
  const taps = Array.from({ length: 20_000 }, (_, i) => generateSun({ uid, counter: i + 1, keys }));
  let started = performance.now();
  for (const tap of taps) {
    if (!verifySun({ piccData: tap.piccData, cmac: tap.cmac, keys }).ok)
      throw new Error('verification failed');
  }
  const pureMs = performance.now() - started;

  const api = await startTestApi({ RATE_LIMIT_PER_MINUTE: '0' });
  try {
    const tenant = await api.createTenant('Bench');
    await api.call('POST', '/v1/dpp/enroll', { key: tenant.testKey, body: { chipUid: uid } });
    const httpTaps = taps.slice(0, 2_000);
    let next = 0;
    started = performance.now();
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < httpTaps.length) {
          const tap = httpTaps[next++]!;
          await api.call('POST', '/v1/dpp/verify-chip', {
            key: tenant.testKey,
            body: { chipUid: uid, piccData: tap.piccData, cmac: tap.cmac },
          });
        }
      }),
    );
    const httpMs = performance.now() - started;
    report('SUN verification', {
      'pure verifySun/s (baseline)': rate(taps.length, pureMs),
      'POST /v1/dpp/verify-chip/s (16 clients)': rate(httpTaps.length, httpMs),
      'ratio HTTP / pure': rate(httpTaps.length, httpMs) / rate(taps.length, pureMs),
    });
  } finally {
    await api.close();
  }
}
