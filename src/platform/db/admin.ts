import pg from 'pg';

/** Runs one statement on a maintenance connection (database-level DDL cannot run inside the ORM's pool). */
export async function adminQuery(
  adminUrl: string,
  sql: string,
  params: unknown[] = [],
): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return await client.query(sql, params);
  } finally {
    await client.end();
  }
}

/** The URL of another database on the same server. */
export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

export async function canConnect(url: string): Promise<boolean> {
  try {
    await adminQuery(url, 'select 1');
    return true;
  } catch {
    return false;
  }
}
