import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import { HDNodeWallet } from 'ethers';

/** Anvil's well-known development mnemonic: its keys are public, never use them on a real chain. */
export const ANVIL_MNEMONIC = 'test test test test test test test test test test test junk';
export const ANVIL_CHAIN_ID = 31337;

export interface StartAnvilOptions {
  /** 0 or undefined: a free port chosen by the OS (race-free, read back from anvil's output). */
  port?: number;
  /** Seconds between blocks; undefined mines one block per transaction (automine). */
  blockTime?: number;
  chainId?: number;
  /** Load the chain from this file on start and dump it there on stop (and every stateIntervalSeconds). */
  stateFile?: string;
  stateIntervalSeconds?: number;
  accounts?: number;
  startupTimeoutMs?: number;
}

export interface AnvilAccount {
  address: string;
  privateKey: string;
}

export interface AnvilInstance {
  rpcUrl: string;
  port: number;
  chainId: number;
  pid: number;
  /** Funded dev accounts (10 000 ETH each) derived from ANVIL_MNEMONIC. */
  accounts: AnvilAccount[];
  stop(): Promise<void>;
}

/** Path of the platform-specific anvil binary that npm installed with @foundry-rs/anvil. */
export function findAnvilBinary(): string {
  const fromEnv = process.env.ANVIL_BINARY;
  if (fromEnv) {
    if (existsSync(fromEnv)) return fromEnv;
    throw new Error(`ANVIL_BINARY names ${fromEnv}, which does not exist`);
  }
  const arch = process.arch === 'x64' ? 'amd64' : process.arch;
  const packageName = `@foundry-rs/anvil-${process.platform}-${arch}`;
  const executable = process.platform === 'win32' ? 'anvil.exe' : 'anvil';
  try {
    const packageJson = createRequire(import.meta.url).resolve(`${packageName}/package.json`);
    const binary = join(dirname(packageJson), 'bin', executable);
    if (existsSync(binary)) return binary;
  } catch {
    // reported below
  }
  throw new Error(
    `anvil binary not found: ${packageName} is not installed (it is an optional dependency of ` +
      '@foundry-rs/anvil; run npm install on this platform) or set ANVIL_BINARY to an anvil executable.',
  );
}

const accountCache = new Map<number, AnvilAccount[]>();

export function anvilAccounts(count = 10): AnvilAccount[] {
  const cached = accountCache.get(count);
  if (cached) return cached;
  const parent = HDNodeWallet.fromPhrase(ANVIL_MNEMONIC, undefined, "m/44'/60'/0'/0");
  const accounts = Array.from({ length: count }, (_, i) => {
    const wallet = parent.deriveChild(i);
    return { address: wallet.address, privateKey: wallet.privateKey };
  });
  accountCache.set(count, accounts);
  return accounts;
}

function buildArgs(options: StartAnvilOptions, chainId: number, accounts: number): string[] {
  const args = ['--host', '127.0.0.1', '--port', String(options.port ?? 0), '--chain-id', String(chainId)];
  args.push('--accounts', String(accounts), '--mnemonic', ANVIL_MNEMONIC);
  if (options.blockTime !== undefined) args.push('--block-time', String(options.blockTime));
  if (options.stateFile) {
    args.push('--state', options.stateFile);
    if (options.stateIntervalSeconds) args.push('--state-interval', String(options.stateIntervalSeconds));
  }
  return args;
}

async function rpcAnswers(rpcUrl: string): Promise<boolean> {
  try {
    const response = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
    });
    return response.ok && typeof ((await response.json()) as { result?: unknown }).result === 'string';
  } catch {
    return false;
  }
}

/** Whether `child` exited within `timeoutMs` (at once if it already has). */
export function waitForExit(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** Resolves with the port of anvil's "Listening on 127.0.0.1:PORT" line; rejects if it exits first. */
function listeningPort(child: ChildProcess, stdout: Interface, timeoutMs: number): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const settle = (outcome: () => void) => {
      clearTimeout(timer);
      stdout.off('line', onLine);
      child.off('error', onError);
      child.off('exit', onExit);
      outcome();
    };
    const onLine = (line: string) => {
      const match = /Listening on [^\s:]+:(\d+)/.exec(line);
      if (match) settle(() => resolve(Number(match[1])));
    };
    const onError = (error: Error) => settle(() => reject(error));
    const onExit = (code: number | null, signal: string | null) =>
      settle(() => reject(new Error(`exited with ${signal ?? `code ${code}`}`)));
    const timer = setTimeout(
      () => settle(() => reject(new Error(`no "Listening on" line within ${timeoutMs} ms`))),
      timeoutMs,
    );
    stdout.on('line', onLine);
    child.once('error', onError);
    child.once('exit', onExit);
  });
}

/** Starts the real anvil binary on 127.0.0.1 and resolves once its JSON-RPC endpoint answers. */
export async function startAnvil(options: StartAnvilOptions = {}): Promise<AnvilInstance> {
  const chainId = options.chainId ?? ANVIL_CHAIN_ID;
  const accountCount = options.accounts ?? 10;
  const child = spawn(findAnvilBinary(), buildArgs(options, chainId, accountCount), {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const remember = (line: string) => {
    output.push(line);
    if (output.length > 40) output.shift();
  };
  // Keep draining anvil's request log: a full pipe would block it.
  createInterface({ input: child.stderr! }).on('line', remember);
  const stdout = createInterface({ input: child.stdout! });
  stdout.on('line', remember);
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);

  const fail = (reason: string) => {
    child.kill('SIGKILL');
    process.removeListener('exit', killOnExit);
    return new Error(`anvil did not start: ${reason}\n${output.join('\n')}`);
  };
  const timeoutMs = options.startupTimeoutMs ?? 15_000;
  let port: number;
  try {
    port = await listeningPort(child, stdout, timeoutMs);
  } catch (error) {
    throw fail((error as Error).message);
  }

  const rpcUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 5_000;
  while (!(await rpcAnswers(rpcUrl))) {
    if (Date.now() > deadline) throw fail(`${rpcUrl} does not answer eth_chainId`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  // A forgotten stop() must not keep the process alive (the exit hook still kills anvil).
  child.unref();
  for (const stream of [child.stdout, child.stderr]) (stream as unknown as { unref?: () => void }).unref?.();

  let stopping: Promise<void> | undefined;
  return {
    rpcUrl,
    port,
    chainId,
    pid: child.pid!,
    accounts: anvilAccounts(accountCount),
    stop: () => {
      stopping ??= (async () => {
        process.removeListener('exit', killOnExit);
        child.kill('SIGTERM'); // lets anvil dump its state file
        if (!(await waitForExit(child, 10_000))) {
          child.kill('SIGKILL');
          await waitForExit(child, 2_000);
        }
      })();
      return stopping;
    },
  };
}
