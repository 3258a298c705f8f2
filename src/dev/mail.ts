import { mkdir, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import type { Config } from '../config/config.ts';
import type { Logger } from '../logging/logger.ts';

export interface DevMail {
  /** The configuration with SMTP_URL pointed at the local receiver (unchanged when SMTP_URL is set). */
  config: Config;
  /** Where received mail is written (one .eml file per message); undefined with a configured SMTP_URL. */
  inbox: string | undefined;
  stop(): Promise<void>;
}

/**
 * Mail for `npm start`: the configured SMTP server when SMTP_URL is set, else a real SMTP server on a free
 * local port (the smtp-server package) that writes every message it receives to DEV_MAIL_DIR (`.data/mail`)
 * as an .eml file, so confirmation links can be read and followed.
 */
export async function startDevMail(config: Config, logger: Logger): Promise<DevMail> {
  if (config.identity.smtpUrl) return { config, inbox: undefined, stop: async () => {} };
  const { SMTPServer } = await import('smtp-server');
  const inbox = resolve(config.identity.devMailDir);
  await mkdir(inbox, { recursive: true });
  let received = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((r) => r.address).join(',');
        const file = resolve(inbox, `${new Date().toISOString().replace(/[:.]/g, '-')}-${++received}.eml`);
        writeFile(file, Buffer.concat(chunks)).then(
          () => {
            logger.info({ to, file }, 'mail received by the development SMTP server');
            callback();
          },
          (error: Error) => callback(error),
        );
      });
    },
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const port = (server.server.address() as AddressInfo).port;
  return {
    config: { ...config, identity: { ...config.identity, smtpUrl: `smtp://127.0.0.1:${port}` } },
    inbox,
    stop: () => new Promise<void>((done) => server.close(() => done())),
  };
}
