// The resolver bench's baseline: a bare node:http server with a pg pool. No framework, no middleware, no
// validation, no logging. Run as its own process: node bench/bare-resolver.ts.
// What it reads and writes is derived from the service's own code, so the baseline cannot drift from what the
// service serves (as it did when the public view gained `dppHeader` and `productGroupData`): format=public runs
// the service's statement (PUBLIC_FACTS) and renders the row with the service's pure view (publicDocument);
// format=vc runs the service's stored-credential statement and writes the stored bytes. What is left out is
// exactly what the bench measures: the API process's framework, middleware, routing and negotiation.
import { createServer } from 'node:http';
import pg from 'pg';
import {
  PUBLIC_FACTS,
  type PublicFactsRow,
  publicFactsOf,
  STORED_CREDENTIAL,
} from '../src/passport/views/fast-lookups.ts';
import { namesPassport } from '../src/passport/views/item-key.ts';
import { publicDocument } from '../src/passport/views/public-view.ts';
import type { Environment } from '../src/platform/config/config.ts';

const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.POOL_MAX ?? 10),
});
const base = process.env.PUBLIC_BASE_URL ?? 'http://localhost:3000';
const PATH = /^\/01\/(\d{14})\/21\/(\d+)$/;

const server = createServer(async (req, res) => {
  const url = new URL(req.url ?? '/', 'http://bare');
  const match = PATH.exec(url.pathname);
  const environment: Environment = req.headers['x-service-env'] === 'test' ? 'test' : 'live';
  try {
    if (!match) throw new Error('not found');
    const [, gtin, serial] = match as unknown as [string, string, string];
    if (url.searchParams.get('format') === 'vc') {
      const { rows } = await pool.query({
        name: 'vc',
        text: STORED_CREDENTIAL,
        values: [environment, serial],
      });
      const row = rows[0];
      if (!row?.credential || !namesPassport(row, { gtin, serial })) throw new Error('not found');
      res.writeHead(200, { 'content-type': 'application/ld+json' });
      res.end(row.credential);
      return;
    }
    const { rows } = await pool.query<PublicFactsRow>({
      name: 'public',
      text: PUBLIC_FACTS,
      values: [environment, serial],
    });
    const facts = rows[0] && publicFactsOf(rows[0]);
    if (!facts || !namesPassport(facts, { gtin, serial })) throw new Error('not found');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(publicDocument(facts, base, environment)));
  } catch {
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end('{"status":404}');
  }
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('bare resolver listening'));
process.on('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  void pool.end().then(() => process.exit(0));
});
