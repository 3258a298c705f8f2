import { type Agent, request } from 'node:http';
import { connect } from 'node:net';

// HTTP below what fetch can do: a chosen source address, a body that stalls or is cut short, raw bytes.

/** A request from a chosen loopback address (the server sees it as the socket peer). */
export function callFrom(
  agent: Agent,
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers, agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Sends the head and `sent` of a body declared `declared` bytes long, then waits: what comes back, and when. */
export function stallingUpload(
  port: number,
  path: string,
  headers: Record<string, string>,
  declared: number,
  sent: string,
): Promise<{ response: string; firstByteMs: number | undefined; closedMs: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    let response = '';
    let firstByteMs: number | undefined;
    const socket = connect(port, '127.0.0.1', () => {
      const head = Object.entries({ ...headers, 'content-length': String(declared) })
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('');
      socket.write(`POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\n${head}\r\n${sent}`);
    });
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      firstByteMs ??= Date.now() - started;
      response += chunk;
    });
    socket.on('error', () => {});
    socket.on('close', () => resolve({ response, firstByteMs, closedMs: Date.now() - started }));
    // The client would wait forever; the server must end it well before this.
    setTimeout(() => {
      socket.destroy();
      reject(new Error(`the connection was still open after 20 s; got: ${response.slice(0, 200)}`));
    }, 20_000).unref();
  });
}

/** Writes `text` on a fresh connection (then half-closes it when asked) and collects the answer until closed. */
export function rawExchange(
  port: number,
  text: string,
  options: { halfClose?: boolean } = {},
): Promise<{ response: string; closedMs: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    let response = '';
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(text);
      if (options.halfClose) socket.end();
    });
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      response += chunk;
    });
    socket.on('error', () => {});
    socket.on('close', () => resolve({ response, closedMs: Date.now() - started }));
    setTimeout(() => {
      socket.destroy();
      reject(new Error(`the connection was still open after 20 s; got: ${response.slice(0, 200)}`));
    }, 20_000).unref();
  });
}
