/**
 * Command-line entry point. Accepts the command lines of the official binaries so the SDK's
 * `TestWorkflowEnvironment` can launch it as an `existing-path` executable:
 *   <port>                      -> time-skipping test server
 *   server start-dev [flags]    -> dev server (real time)
 * Needs Node >= 22.18 (runs TypeScript natively through type stripping).
 */
import { parseServerArgs, UsageError } from './cli-args.ts';
import { startTemporalServer } from './server.ts';

async function main(): Promise<void> {
  let args: ReturnType<typeof parseServerArgs>;
  try {
    args = parseServerArgs(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(err.message);
    process.exit(2);
  }
  const server = await startTemporalServer({
    mode: args.mode,
    port: args.port,
    host: args.host,
    namespaces: args.namespaces,
    searchAttributes: args.searchAttributes,
    logLevel: args.logLevel,
  });
  const namespaces = ['default', ...args.namespaces.filter((ns) => ns !== 'default')].join(', ');
  // The test server stays quiet like the official one: its stdout is usually a test runner's.
  if (args.mode === 'dev') {
    console.log(
      `Temporal dev server (in-memory) is running at: ${server.address} (namespaces: ${namespaces})`,
    );
  }
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((err: unknown) => {
  console.error('dpp-temporal-server failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
