import { type LogLevel, parseLogLevel } from './logger.ts';

/** What the executable was asked to do, from either of the official binaries' command lines. */
export interface ServerArgs {
  mode: 'time-skipping' | 'dev';
  port: number;
  host: string;
  namespaces: string[];
  /** name -> type as written on the command line (e.g. 'Keyword'). */
  searchAttributes: Record<string, string>;
  logLevel: LogLevel;
}

export class UsageError extends Error {}

export const USAGE = `Usage:
  dpp-temporal-server <port> [ignored extra args]
      Time-skipping test server (like the official temporal-test-server).
  dpp-temporal-server server start-dev [--port P] [--ip IP] [--namespace NS]... [--search-attribute Name=Type]...
                                       [--log-level L] [--headless] [other temporal CLI flags, ignored]
      Development server in real time (like \`temporal server start-dev\`). Default port 7233.`;

// Flags of `temporal server start-dev` that take no value.
const BOOLEAN_FLAGS = new Set(['--headless', '--help', '-h']);

function splitFlags(args: string[]): Array<[string, string | undefined]> {
  const flags: Array<[string, string | undefined]> = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith('-')) throw new UsageError(`Unexpected argument: ${arg}`);
    const eq = arg.indexOf('=');
    if (arg.startsWith('--') && eq > 0) {
      flags.push([arg.slice(0, eq), arg.slice(eq + 1)]);
    } else if (BOOLEAN_FLAGS.has(arg)) {
      flags.push([arg, undefined]);
    } else {
      const value = args[i + 1];
      if (value === undefined) throw new UsageError(`Flag ${arg} needs a value`);
      flags.push([arg, value]);
      i++;
    }
  }
  return flags;
}

function parsePort(value: string | undefined, flag: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`Invalid ${flag}: ${value}`);
  return port;
}

export function parseServerArgs(argv: string[]): ServerArgs {
  if (argv.length === 0 || argv.includes('--help') || argv.includes('-h')) throw new UsageError(USAGE);
  const [first, second, ...rest] = argv;
  if (first !== undefined && /^\d+$/.test(first)) {
    return {
      mode: 'time-skipping',
      port: parsePort(first, 'port'),
      host: '127.0.0.1',
      namespaces: [],
      searchAttributes: {},
      logLevel: parseLogLevel(process.env.DPP_TEMPORAL_LOG_LEVEL, 'warn'),
    };
  }
  if (first !== 'server' || second !== 'start-dev') throw new UsageError(USAGE);
  const result: ServerArgs = {
    mode: 'dev',
    port: 7233,
    host: '127.0.0.1',
    namespaces: [],
    searchAttributes: {},
    logLevel: parseLogLevel(process.env.DPP_TEMPORAL_LOG_LEVEL, 'warn'),
  };
  for (const [flag, value] of splitFlags(rest)) {
    switch (flag) {
      case '--port':
      case '-p':
        result.port = parsePort(value, flag);
        break;
      case '--ip':
        result.host = value ?? result.host;
        break;
      case '--namespace':
      case '-n':
        if (value && !result.namespaces.includes(value)) result.namespaces.push(value);
        break;
      case '--search-attribute': {
        const eq = value?.indexOf('=') ?? -1;
        if (!value || eq <= 0)
          throw new UsageError(`Invalid --search-attribute ${value}: expected Name=Type`);
        result.searchAttributes[value.slice(0, eq)] = value.slice(eq + 1);
        break;
      }
      case '--log-level':
        result.logLevel = parseLogLevel(value, result.logLevel);
        break;
      default:
        // --headless, --log-format, --db-filename, --ui-port, --http-port, --dynamic-config-value, ...
        // have no meaning for an in-memory server without UI.
        break;
    }
  }
  return result;
}
