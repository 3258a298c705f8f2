import { readFile } from 'node:fs/promises';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import type { Config } from '../config/config.ts';

type TemporalSettings = Config['temporal'];

async function tlsOptions(settings: TemporalSettings) {
  if (!settings.tls) return undefined;
  if (settings.tlsCertPath && settings.tlsKeyPath) {
    return {
      clientCertPair: { crt: await readFile(settings.tlsCertPath), key: await readFile(settings.tlsKeyPath) },
    };
  }
  return true;
}

/** A client for starting, signalling and querying workflows (API side), with its connection. */
export async function connectClient(
  settings: TemporalSettings,
  address: string,
): Promise<{ client: Client; connection: Connection }> {
  const connection = await Connection.connect({
    address,
    tls: await tlsOptions(settings),
    ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
  });
  return { client: new Client({ connection, namespace: settings.namespace }), connection };
}

/** The worker's native connection to the same cluster. */
export async function connectWorker(settings: TemporalSettings, address: string): Promise<NativeConnection> {
  return NativeConnection.connect({
    address,
    tls: await tlsOptions(settings),
    ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
  });
}
