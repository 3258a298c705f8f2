import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { freePort } from '../../platform/runtime/ports.ts';
import { waitForExit } from '../chain/anvil.ts';

export interface StartAltoOptions {
  rpcUrl: string;
  entryPoint: string;
  /** Keys of the accounts that send the bundles (they pay the gas, the paymaster pays them back). */
  executorPrivateKeys: string[];
  /** Deploys alto's simulation contracts on first start (through the deterministic deployer). */
  utilityPrivateKey: string;
  /** 0 or undefined: a free port. */
  port?: number;
  startupTimeoutMs?: number;
  logLevel?: 'debug' | 'info' | 'warn' | 'error';
}

export interface AltoInstance {
  url: string;
  port: number;
  pid: number;
  /** The last lines alto wrote (for failure messages). */
  output(): string[];
  /** SIGKILL, as a crash would (the chaos tests' bundler failure). */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

/** The alto CLI that npm installed with @pimlico/alto. */
export function findAltoCli(): string {
  const entry = createRequire(import.meta.url).resolve('@pimlico/alto'); // <package>/esm/index.js
  return join(dirname(entry), 'cli', 'alto.js');
}

async function healthy(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/health`, { signal: AbortSignal.timeout(1_000) })).ok;
  } catch {
    return false;
  }
}

/**
 * Arguments for a development chain (anvil): no ERC-7562 tracing (anvil has no native tracer for it), no
 * wallet refilling, bundles sent as soon as operations arrive.
 */
export function altoArguments(options: StartAltoOptions, port: number): string[] {
  return [
    '--entrypoints',
    options.entryPoint,
    '--rpc-url',
    options.rpcUrl,
    '--executor-private-keys',
    options.executorPrivateKeys.join(','),
    '--utility-private-key',
    options.utilityPrivateKey,
    '--port',
    String(port),
    '--safe-mode',
    'false',
    '--refilling-wallets',
    'false',
    '--utility-wallet-monitor',
    'false',
    '--min-bundle-interval',
    '50',
    '--max-bundle-interval',
    '200',
    '--block-time',
    '250',
    '--block-number-cache-ttl',
    '250',
    '--log-level',
    options.logLevel ?? 'warn',
  ];
}

/** Starts the real alto bundler (Node, the running Node binary) and resolves once /health answers. */
export async function startAlto(options: StartAltoOptions): Promise<AltoInstance> {
  const port = options.port || (await freePort());
  const watchdog = pathToFileURL(fileURLToPath(new URL('./exit-with-parent.ts', import.meta.url))).href;
  const child = spawn(
    process.execPath,
    ['--import', watchdog, findAltoCli(), ...altoArguments(options, port)],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const lines: string[] = [];
  const remember = (line: string) => {
    lines.push(line);
    if (lines.length > 60) lines.shift();
  };
  createInterface({ input: child.stdout! }).on('line', remember);
  createInterface({ input: child.stderr! }).on('line', remember);
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.startupTimeoutMs ?? 60_000);
  while (!(await healthy(url))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      process.removeListener('exit', killOnExit);
      throw new Error(
        `alto did not start (${child.exitCode === null ? 'timeout' : `exit ${child.exitCode}`}):\n${lines.join('\n')}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.unref();
  for (const stream of [child.stdout, child.stderr]) (stream as unknown as { unref?: () => void }).unref?.();

  const terminate = async (signal: NodeJS.Signals) => {
    process.removeListener('exit', killOnExit);
    child.kill(signal);
    if (!(await waitForExit(child, 5_000))) {
      child.kill('SIGKILL');
      await waitForExit(child, 2_000);
    }
  };
  let stopping: Promise<void> | undefined;
  return {
    url,
    port,
    pid: child.pid!,
    output: () => [...lines],
    kill: () => terminate('SIGKILL'),
    stop: () => {
      stopping ??= terminate('SIGTERM');
      return stopping;
    },
  };
}
