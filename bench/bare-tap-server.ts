// The verify-chip bench's reference: the least any HTTP service in front of the counter UPDATE does. A bare
// node:http server with a pg pool of the API's size: it reads the JSON body, runs the conditional UPDATE (with
// a counter of its own instead of the tap's, which it does not verify) and answers a small JSON verdict. No
// framework, authentication, SUN verification, logging or signals. Run as its own process, as the API is. Its
// counters start at 1,000,000, above the bench's taps and below its UPDATE baseline's, so every UPDATE writes.
import { createServer } from 'node:http';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const UPDATE = `update chips set sun_counter = $1, verification_count = verification_count + 1,
  last_verified_at = now() where chip_uid = $2 and (sun_counter is null or sun_counter < $1) returning id`;
let counter = 1_000_000;

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', async () => {
    try {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { chipUid: string };
      const { rowCount } = await pool.query({ name: 'tap', text: UPDATE, values: [counter++, body.chipUid] });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ authentic: rowCount === 1, chipUid: body.chipUid }));
    } catch {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end('{"status":400}');
    }
  });
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
process.on('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  void pool.end().then(() => process.exit(0));
});
