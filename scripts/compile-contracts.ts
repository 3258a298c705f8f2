// Compiles the passport contract and writes src/adapters/chain/artifacts/DigitalProductPassport.json
// (`--check`: only verify that the committed artifact matches the sources; exit 1 if not).
import { relative } from 'node:path';
import {
  compilePassport,
  isPassportArtifactCurrent,
  PASSPORT_ARTIFACT_PATH,
  readPassportArtifact,
  writePassportArtifact,
} from '../src/adapters/chain/compile.ts';

const path = relative(process.cwd(), PASSPORT_ARTIFACT_PATH);
if (process.argv.includes('--check')) {
  const artifact = readPassportArtifact();
  if (!artifact || !isPassportArtifactCurrent(artifact)) {
    console.error(`${path} is missing or stale: run npm run build:contracts`);
    process.exit(1);
  }
  console.log(`${path} is up to date (${artifact.compiler.version})`);
} else {
  const started = Date.now();
  const artifact = compilePassport();
  writePassportArtifact(artifact);
  console.log(
    `compiled ${artifact.contractName} with solc ${artifact.compiler.version} in ${Date.now() - started} ms → ${path}`,
  );
}
