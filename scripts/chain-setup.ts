// One-shot before the workers start (docker-compose `chain-setup`): with CHAIN_AUTO_DEPLOY on a development
// chain, deploys each environment's passport contract once and records it in CHAIN_DATA_DIR, so worker replicas
// starting together find one recorded contract instead of each deploying its own. It only deploys (a plain
// contract creation, no passport write), so it needs no database; the workers' chains write through the
// transaction manager.
import { ensureEnvironmentContracts } from '../src/adapters/chain/environment-contracts.ts';
import { loadConfig } from '../src/platform/config/config.ts';

const config = loadConfig();
const { contracts, anvil } = await ensureEnvironmentContracts(config, { dataDir: config.chain.dataDir });
for (const environment of ['live', 'test'] as const)
  console.log(`${environment}: passport contract ${contracts[environment].contractAddress}`);
await anvil?.stop();
