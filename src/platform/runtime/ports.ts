import { readFileSync } from 'node:fs';
import { createServer, Socket } from 'node:net';

const LOWEST = 20000;

/**
 * A port nobody listens on right now (the server binds it a moment later).
 *
 * It is taken below the kernel's ephemeral range: a port the kernel hands out for `listen(0)` is also what it hands
 * out as the local end of outgoing connections, so another process's client socket could hold it by the time the
 * server binds (CI once failed on exactly that, EADDRINUSE on 32791).
 */
export async function freePort(): Promise<number> {
  const below = ephemeralRangeStart();
  if (below - LOWEST >= 1000) {
    for (let attempt = 0; attempt < 40; attempt++) {
      const candidate = LOWEST + Math.floor(Math.random() * (below - LOWEST));
      if (await canBind(candidate)) return candidate;
    }
  }
  return bindAny();
}

function ephemeralRangeStart(): number {
  try {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/);
    const value = Number(low);
    return Number.isInteger(value) && value > 0 ? value : 32768;
  } catch {
    return 32768;
  }
}

function canBind(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

function bindAny(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Whether something accepts TCP connections on 127.0.0.1:port. */
export function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.setTimeout(1000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.connect(port, '127.0.0.1');
  });
}
