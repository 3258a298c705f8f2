// Obtains the official Temporal servers into .cache/temporal (cached, downloaded by the SDK, or built from
// their published sources) and prints what it did: npm run temporal:obtain
import {
  obtainTemporalCli,
  obtainTemporalTestServer,
  TemporalBinaryUnavailable,
} from './dev/temporal-binaries.ts';

const log = (line: string) => console.log(line);
try {
  const cli = await obtainTemporalCli({ log });
  console.log(`Temporal CLI:         ${cli.path} (${cli.how})`);
  const testServer = await obtainTemporalTestServer({ log });
  console.log(`Temporal test server: ${testServer.path} (${testServer.how})`);
} catch (error) {
  if (!(error instanceof TemporalBinaryUnavailable)) throw error;
  console.error(error.message);
  process.exit(1);
}
