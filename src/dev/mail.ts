import { mkdir, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Config } from '../config/config.ts';
import type { Logger } from '../logging/logger.ts';
import { startSmtpServer } from './smtp-server.ts';

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
  const inbox = resolve(config.identity.devMailDir);
  await mkdir(inbox, { recursive: true });
  let received = 0;
  const server = await startSmtpServer(async (message) => {
    const file = resolve(inbox, `${new Date().toISOString().replace(/[:.]/g, '-')}-${++received}.eml`);
    await writeFile(file, message.raw);
    logger.info({ to: message.to.join(','), file }, 'mail received by the development SMTP server');
  });
  return {
    config: { ...config, identity: { ...config.identity, smtpUrl: server.url } },
    inbox,
    stop: () => server.close(),
  };
}
