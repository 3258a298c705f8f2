import http from 'node:http';
import https from 'node:https';
import type { VettedAddress } from '../adapters/http/pinned-request.ts';

/**
 * POSTs in flight at once to one receiver (a URL origin), which is also how many connections its agent keeps:
 * one slow or failing receiver holds at most this many of the dispatcher's sending slots.
 */
export const MAX_PER_RECEIVER = 64;
/**
 * An idle kept-alive connection is closed after this long, before the servers most receivers run close it
 * themselves (Node's default is 5 s; Node's agent also honours a shorter `Keep-Alive: timeout=` the receiver
 * announces), so a request rarely meets a socket the receiver has just closed (see postWebhook).
 */
const IDLE_SOCKET_MS = 4_000;
/** A receiver unused for this long loses its agent (and with it any socket left). */
const IDLE_AGENT_MS = 60_000;

/** The receiver a delivery goes to: its URL's origin (scheme, host, port). */
export function receiverOf(url: string | URL): string {
  try {
    return new URL(url).origin;
  } catch {
    return String(url);
  }
}

const agents = new Map<string, { agent: http.Agent; lastUsed: number }>();
let lastPrune = 0;

function prune(now: number): void {
  if (now - lastPrune < IDLE_AGENT_MS / 4) return;
  lastPrune = now;
  for (const [key, entry] of agents) {
    if (now - entry.lastUsed > IDLE_AGENT_MS) {
      entry.agent.destroy();
      agents.delete(key);
    }
  }
}

/**
 * The keep-alive agent of one receiver as vetted now: keyed by origin and the exact vetted addresses, so a
 * socket is only reused for the addresses it was connected to (a changed DNS answer gets a new agent, whose
 * sockets connect to the new vetted addresses).
 */
export function receiverAgent(url: URL, addresses: readonly VettedAddress[]): http.Agent {
  const now = Date.now();
  prune(now);
  const key = `${url.origin} ${addresses
    .map((a) => a.address)
    .sort()
    .join(',')}`;
  let entry = agents.get(key);
  if (!entry) {
    const options = { keepAlive: true, maxSockets: MAX_PER_RECEIVER, timeout: IDLE_SOCKET_MS };
    entry = {
      agent: url.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options),
      lastUsed: now,
    };
    agents.set(key, entry);
  }
  entry.lastUsed = now;
  return entry.agent;
}
