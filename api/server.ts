import { randomUUID } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type Koa from 'koa';
import type { AppContext, AppState } from './context.ts';

export interface RunningHttpServer {
  url: string;
  port: number;
  server: Server;
  /** Stops accepting connections, lets in-flight requests finish for up to `graceMs`, then cuts the rest. */
  close(graceMs?: number): Promise<void>;
}

export interface ListenOptions {
  /** BODY_READ_TIMEOUT_MS: our body reader answers 408 after it; Node's own timeouts back it up. */
  bodyReadTimeoutMs?: number;
}

/** Slack above the body read timeout before Node itself gives up on a request and closes its connection. */
const BACKSTOP_SLACK_MS = 5_000;
const HEADERS_TIMEOUT_MS = 20_000;

export async function listen(
  app: Koa<AppState, AppContext>,
  host: string,
  port: number,
  options: ListenOptions = {},
): Promise<RunningHttpServer> {
  // Backstop for requests our body reader never reads (refused before their body, or not JSON): Node answers
  // 408 and closes the connection once the request has not fully arrived after requestTimeout. Timeouts are
  // checked every second, not every 30 s (Node's default), so the bound holds to about a second.
  const requestTimeout = (options.bodyReadTimeoutMs ?? 10_000) + BACKSTOP_SLACK_MS;
  const server = createServer(
    {
      requestTimeout,
      headersTimeout: Math.min(HEADERS_TIMEOUT_MS, requestTimeout),
      connectionsCheckingInterval: 1_000,
    },
    app.callback(),
  );
  server.on('clientError', answerClientError);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
  return {
    url: `http://${shownHost}:${address.port}`,
    port: address.port,
    server,
    close: (graceMs = 10_000) =>
      new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), graceMs);
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}

/** Parser errors that mean the client stopped before the message was complete (it ended its side mid-body). */
const CUT_SHORT = new Set(['HPE_INVALID_EOF_STATE']);

/**
 * Requests Node refuses (a request line or headers over Node's 16 KiB, bytes that are not HTTP, a malformed
 * chunked body, a body cut short, a request that timed out) get the same problem+json answer as every other
 * refusal instead of Node's bare status line or a silently closed connection. This holds while the app is
 * still reading the request's body, as long as no byte of its own answer has been written: the app's answer,
 * written later, goes nowhere (the socket is no longer writable, so Node buffers and drops it).
 */
function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (!socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const bodyTimeout =
    inFlight !== undefined && inFlight !== null
      ? 'The request body did not arrive in time; the connection is closed.'
      : 'The request did not arrive in time.';
  const [status, title, code, detail] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [
          431,
          'Request Header Fields Too Large',
          'headers_too_large',
          'The request line or headers exceed 16 KiB.',
        ]
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'request_timeout', bodyTimeout]
        : CUT_SHORT.has(error.code ?? '') && inFlight
          ? [
              408,
              'Request Timeout',
              'request_timeout',
              'The request body ended before its declared length arrived; the connection is closed.',
            ]
          : error.code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW'
            ? [413, 'Payload Too Large', 'payload_too_large', 'The chunk extensions exceed 16 KiB.']
            : [
                400,
                'Bad Request',
                'malformed_request',
                inFlight
                  ? 'The request body is not valid HTTP (e.g. malformed chunked encoding); the connection is closed.'
                  : 'The request is not valid HTTP.',
              ];
  const requestId = randomUUID();
  const body = JSON.stringify({
    type: `urn:problem-type:dpp:${code}`,
    title,
    status,
    detail,
    instance: inFlight?.req?.url?.split('?')[0] ?? '',
    code,
    requestId,
    success: false,
  });
  socket.end(
    `HTTP/1.1 ${status} ${title}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nx-request-id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
  );
  // A client that never closes its side must not keep the socket: end() above sent our FIN.
  setTimeout(() => socket.destroy(), 2_000).unref();
}
