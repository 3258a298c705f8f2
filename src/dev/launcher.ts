import { createApp } from '../../api/app.ts';
import { listen } from '../../api/server.ts';
import { ensureDemoCompany } from '../accounts/demo.ts';
import { ConfigError, loadConfig } from '../config/config.ts';
import { createLogger } from '../logging/logger.ts';
import { openDatabase } from '../runtime/database.ts';
import { onShutdown } from '../runtime/shutdown.ts';

/** `npm start`: the whole service on embedded defaults, in one process. */
export async function launch(): Promise<void> {
  const started = Date.now();
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
  const logger = createLogger(config.logLevel, { role: 'dev' });
  const database = await openDatabase(config, logger);
  const demo = await ensureDemoCompany(database.orm.em);
  const http = await listen(createApp({ config, orm: database.orm, logger }), config.host, config.port);
  onShutdown(logger, [
    { name: 'HTTP server', run: () => http.close(config.shutdownGraceMs) },
    { name: 'database', run: () => database.close() },
  ]);
  const lines = [
    '',
    `DPP service is up (${((Date.now() - started) / 1000).toFixed(1)} s)`,
    `  API        ${config.publicBaseUrl}   (docs ${config.publicBaseUrl}/docs, OpenAPI ${config.publicBaseUrl}/openapi.json)`,
    `  PostgreSQL ${database.location}`,
  ];
  if (demo) {
    lines.push(
      '',
      `Created "Demo Company" with a test API key (shown only now):`,
      `  ${demo.key}`,
      '',
      'Try it:',
      `  curl -s -H 'x-service-env: test' -H 'Authorization: Bearer ${demo.key}' ${config.publicBaseUrl}/v1/auth/api-keys`,
    );
  } else {
    lines.push('', 'Need a key? npm run cli -- api-key:create --company <companyId> --env test');
  }
  lines.push('', 'Ctrl-C stops everything.', '');
  process.stdout.write(lines.join('\n'));
}
