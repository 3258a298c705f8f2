// Compiles our contracts (the passport, the sponsor paymaster) and writes src/adapters/chain/artifacts/<name>.json
// (`--check`: only verify that the committed artifacts match the sources; exit 1 if not).
import { relative } from 'node:path';
import {
  compileContract,
  isPassportArtifactCurrent,
  OWN_CONTRACTS,
  readPassportArtifact,
  writePassportArtifact,
} from '../src/adapters/chain/compile.ts';

let stale = false;
for (const contract of OWN_CONTRACTS) {
  const path = relative(process.cwd(), contract.artifactPath);
  if (process.argv.includes('--check')) {
    const artifact = readPassportArtifact(contract.artifactPath);
    if (!artifact || !isPassportArtifactCurrent(artifact)) {
      console.error(`${path} is missing or stale: run npm run build:contracts`);
      stale = true;
    } else console.log(`${path} is up to date (${artifact.compiler.version})`);
  } else {
    const started = Date.now();
    const artifact = compileContract(contract);
    writePassportArtifact(artifact, contract.artifactPath);
    console.log(
      `compiled ${artifact.contractName} with solc ${artifact.compiler.version} in ${Date.now() - started} ms → ${path}`,
    );
  }
}
if (stale) process.exit(1);
