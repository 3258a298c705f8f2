import { mkdir, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Config } from '../../src/platform/config/config.ts';
import type { Logger } from '../../src/platform/logging/logger.ts';
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
 * as an .eml file exactly as sent, and beside it a .txt with the headers that matter and the decoded text
 * (the .eml's quoted-printable breaks long links across lines), so confirmation links can be copied whole.
 */
export async function startDevMail(config: Config, logger: Logger): Promise<DevMail> {
  if (config.identity.smtpUrl) return { config, inbox: undefined, stop: async () => {} };
  const inbox = resolve(config.identity.devMailDir);
  await mkdir(inbox, { recursive: true });
  let received = 0;
  const server = await startSmtpServer(async (message) => {
    const file = resolve(inbox, `${new Date().toISOString().replace(/[:.]/g, '-')}-${++received}.eml`);
    await writeFile(file, message.raw);
    await writeFile(file.replace(/\.eml$/, '.txt'), await readable(message.raw));
    logger.info({ to: message.to.join(','), file }, 'mail received by the development SMTP server');
  });
  return {
    config: { ...config, identity: { ...config.identity, smtpUrl: server.url } },
    inbox,
    stop: () => server.close(),
  };
}

async function readable(raw: Buffer): Promise<string> {
  const { simpleParser } = await import('mailparser');
  const mail = await simpleParser(raw);
  const to = Array.isArray(mail.to) ? mail.to.map((a) => a.text).join(', ') : (mail.to?.text ?? '');
  return `From: ${mail.from?.text ?? ''}\nTo: ${to}\nSubject: ${mail.subject ?? ''}\n\n${mail.text ?? ''}\n`;
}
