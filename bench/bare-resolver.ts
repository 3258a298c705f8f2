// The resolver bench's baseline: a bare node:http server with a pg pool that reads the same passport row and
// writes the same JSON as GET /01/{gtin}/21/{serial}?format=public, and for format=vc the stored credential.
// No framework, no middleware, no validation, no logging. Run as its own process: node bench/bare-resolver.ts.
import { createServer } from 'node:http';
import pg from 'pg';

const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.POOL_MAX ?? 10),
});
const base = process.env.PUBLIC_BASE_URL ?? 'http://localhost:3000';
const PATH = /^\/01\/(\d{14})\/21\/(\d+)$/;
const PUBLIC_ROW = `select p.token_id, p.gtin, p.status, p.revoked_at, p.metadata_cache->>'name' as name,
  p.contract_address, c.verification_count
  from passports p join chips c on c.id = p.chip_id
  where p.environment = $1 and p.token_id = $2`;
const CREDENTIAL_ROW = `select pc.credential from passports p join passport_credentials pc on pc.passport_id = p.id
  where p.environment = $1 and p.token_id = $2`;
const CONTEXT = {
  schema: 'https://schema.org/',
  gs1: 'https://gs1.org/voc/',
  idpp: 'urn:dpp-service:vocab:idpp:',
  name: 'schema:name',
  status: 'idpp:status',
  smartContract: 'idpp:smartContract',
  chipType: 'idpp:chipType',
  verificationCount: 'idpp:verificationCount',
};

const server = createServer(async (req, res) => {
  const url = new URL(req.url ?? '/', 'http://bare');
  const match = PATH.exec(url.pathname);
  const environment = req.headers['x-service-env'] === 'test' ? 'test' : 'live';
  try {
    if (!match) throw new Error('not found');
    const [, gtin, serial] = match as unknown as [string, string, string];
    if (url.searchParams.get('format') === 'vc') {
      const { rows } = await pool.query(CREDENTIAL_ROW, [environment, serial]);
      if (!rows[0]) throw new Error('not found');
      res.writeHead(200, { 'content-type': 'application/ld+json' });
      res.end(rows[0].credential);
      return;
    }
    const { rows } = await pool.query(PUBLIC_ROW, [environment, serial]);
    const row = rows[0];
    if (!row || row.gtin !== gtin) throw new Error('not found');
    const body = JSON.stringify({
      '@context': CONTEXT,
      '@type': 'gs1:Product',
      '@id': `${base}${environment === 'test' ? '/test' : ''}/01/${gtin}/21/${serial}`,
      name: row.name,
      'gs1:gtin': gtin,
      'gs1:serialNumber': row.token_id,
      status: row.status === 'RECYCLED' ? 'RECYCLED' : row.revoked_at ? 'REVOKED' : row.status,
      smartContract: row.contract_address,
      'idpp:hardware': {
        chipType: 'NTAG 424 DNA',
        status: row.verification_count > 0 ? 'AUTHENTIC' : 'UNVERIFIED',
        verificationCount: row.verification_count,
      },
    });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(body);
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
