import type { AddressInfo } from 'node:net';

export interface ReceivedMessage {
  from: string;
  to: string[];
  /** The message as sent: headers and body. */
  raw: Buffer;
}

/**
 * A real SMTP server (the smtp-server package) on a free port of 127.0.0.1 that hands every message to
 * `onMessage`: `npm start`'s local mail receiver and the tests' both run on it. Loaded on demand (a dev
 * dependency).
 */
export async function startSmtpServer(
  onMessage: (message: ReceivedMessage) => void | Promise<void>,
): Promise<{ url: string; close(): Promise<void> }> {
  const { SMTPServer } = await import('smtp-server');
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const message = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks),
        };
        Promise.resolve(onMessage(message)).then(
          () => callback(),
          (error: Error) => callback(error),
        );
      });
    },
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
