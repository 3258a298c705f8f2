import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import Stripe from 'stripe';
import { inject } from 'vitest';

export { waitFor } from '../support/wait-for.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export const stack = () => inject('journeys');

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: JSON as the service answers it
  body: any;
}

/**
 * One HTTP request as a client makes it: `key` (an API key or a user token) as a Bearer credential,
 * `env` as x-service-env (null: no header, as a browser or a phone).
 */
export async function http(
  method: string,
  path: string,
  options: {
    key?: string;
    env?: 'live' | 'test' | null;
    body?: unknown;
    headers?: Record<string, string>;
  } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (options.env !== null) headers['x-service-env'] = options.env ?? 'test';
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const url = path.startsWith('http') ? path : `${stack().baseUrl}${path}`;
  const response = await fetch(url, {
    method,
    headers,
    redirect: 'manual',
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, text, body };
}

/** Asserts a 2xx answer and returns its body. */
export async function ok(answer: Promise<Answer> | Answer, what: string) {
  const got = await answer;
  assert.ok(got.status >= 200 && got.status < 300, `${what}: ${got.status} ${got.text.slice(0, 500)}`);
  return got.body;
}

/** The readable copy (.txt) of the newest message to `email` in npm start's inbox. */
export async function mailTo(email: string): Promise<string> {
  const dir = stack().mailDir;
  for (let i = 0; i < 100; i++) {
    const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.txt')).sort();
    for (const name of names.reverse()) {
      const text = await readFile(join(dir, name), 'utf8');
      if (text.toLowerCase().includes(`to: ${email.toLowerCase()}`)) return text;
    }
    await sleep(100);
  }
  throw new Error(`no mail to ${email} in ${dir}`);
}

/** `npm run cli -- tap …`, as the README tells a developer to make a test tap; its printed fields. */
export async function cliTap(
  chipUid: string,
  passport?: { gtin: string; serial: string },
): Promise<{ nfcData: string; url?: string }> {
  const args = ['run', '--silent', 'cli', '--', 'tap', chipUid];
  if (passport) args.push('--gtin', passport.gtin, '--serial', passport.serial);
  const { stdout } = await promisify(execFile)('npm', args, {
    cwd: ROOT,
    env: { ...process.env, PORT: new URL(stack().baseUrl).port },
  });
  const nfcData = /^nfcData\s+(\S+)$/m.exec(stdout)?.[1];
  assert.ok(nfcData, stdout);
  return { nfcData, url: /^url\s+(\S+)$/m.exec(stdout)?.[1] };
}

const signer = new Stripe('sk_test_journeys');

/** A payment-provider event as Stripe POSTs it: signed with the secret the banner prints. */
export async function postProviderEvent(event: Record<string, unknown>): Promise<Answer> {
  const body = JSON.stringify({
    object: 'event',
    api_version: '2026-08-26.dahlia',
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    ...event,
  });
  const signature = signer.webhooks.generateTestHeaderString({
    payload: body,
    secret: stack().stripeWebhookSecret,
  });
  const response = await fetch(`${stack().baseUrl}/v1/public/webhook/checkout`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    body,
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    body: text ? JSON.parse(text) : undefined,
  };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A chip UID of this run's own (7 bytes, 04 first as NXP's are). */
export function chipUid(prefix: number, index: number): string {
  return `04${prefix.toString(16).padStart(2, '0')}${Date.now().toString(16).slice(-6)}${index.toString(16).padStart(4, '0')}`.toUpperCase();
}
