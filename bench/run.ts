// `npm run bench`: each benchmark prints its figures next to a baseline measured in the same run.
import { benchChain } from './chain.bench.ts';
import { benchClaimGas } from './claim-gas.bench.ts';
import { benchGas } from './gas.bench.ts';
import { benchLevels } from './levels.bench.ts';
import { benchMint } from './mint.bench.ts';
import { benchPage } from './page.bench.ts';
import { benchProvision } from './provision.bench.ts';
import { QUICK } from './quick.ts';
import { runContext, writeBenchmarksPage } from './report/page.ts';
import { benchRequestLog } from './request-log.bench.ts';
import { benchResolver } from './resolver.bench.ts';
import { prepareBenchDatabase } from './setup.ts';
import { benchSun } from './sun.bench.ts';
import { benchVolume } from './volume.bench.ts';
import { benchWebhooks } from './webhooks.bench.ts';

const benches: Record<string, () => Promise<void>> = {
  sun: benchSun,
  mint: benchMint,
  webhooks: benchWebhooks,
  provision: benchProvision,
  resolver: benchResolver,
};
// Not in a plain `npm run bench`: seeding a million passports takes minutes (`npm run bench -- volume`); the
// realistic chain's 2 s blocks, fee spike and reorg take about two (`npm run bench -- chain`).
// `npm run bench -- levels`: an item's merged view among a million items under a thousand models.
const onRequest: Record<string, () => Promise<void>> = {
  volume: benchVolume,
  chain: benchChain,
  levels: benchLevels,
  // `npm run bench -- request-log`: what the request log adds to a request.
  'request-log': benchRequestLog,
  // `npm run bench -- claim-gas`: a claim relayed by the platform against the buyer's sponsored user operation.
  'claim-gas': benchClaimGas,
  // `npm run bench -- gas`: exact gas per passport of batches of 1, 10 and 100 on a fresh contract.
  gas: benchGas,
  // `npm run bench -- page`: the verification page's first paint on a throttled phone (headless Chromium).
  page: benchPage,
};
// Flags (--quick: bench/quick.ts; --report: bench/report/page.ts) are not bench names.
const selected = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const REPORT = process.argv.includes('--report');
// A quick run (CI) and a report run every bench, the on-request ones too, unless some are named.
const everything = (QUICK || REPORT) && selected.length === 0;
const context = runContext();
const cleanup = await prepareBenchDatabase();
const timed = async (name: string, run: () => Promise<void>) => {
  const started = performance.now();
  await run();
  console.log(`  (${name}: ${((performance.now() - started) / 1000).toFixed(1)} s)`);
};
try {
  for (const [name, run] of Object.entries(benches)) {
    if (selected.length === 0 || selected.includes(name)) await timed(name, run);
  }
  for (const [name, run] of Object.entries(onRequest)) {
    if (everything || selected.includes(name)) await timed(name, run);
  }
  if (REPORT) console.log(`\nwrote ${writeBenchmarksPage(context)}`);
} finally {
  await cleanup();
}
process.exit(0);
