// One-shot before the workers start (docker-compose `chain-setup`): with CHAIN_AUTO_DEPLOY on a development
// chain, deploys each environment's passport contract once and records it in CHAIN_DATA_DIR, so worker replicas
// starting together find one recorded contract instead of each deploying its own.
import { openPassportChains } from '../src/adapters/chain/environment-chains.ts';
import { loadConfig } from '../src/platform/config/config.ts';

const config = loadConfig();
const chains = await openPassportChains(config, { dataDir: config.chain.dataDir });
for (const environment of ['live', 'test'] as const)
  console.log(`${environment}: passport contract ${chains[environment].contractAddress}`);
await chains.close();
