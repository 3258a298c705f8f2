import assert from 'node:assert/strict';
import { startSmtpServer } from '../../scripts/dev/smtp-server.ts';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The message as sent (headers and body), quoted-printable soft breaks and escapes decoded. */
  text: string;
}

export interface SmtpReceiver {
  /** For SMTP_URL. */
  url: string;
  mails: ReceivedMail[];
  /** The `index`-th mail to `to` (0: the first), waiting for it up to 10 s. */
  mailTo(to: string, index?: number): Promise<ReceivedMail>;
  /** The link with a token (`https://…<path>?token=…`, a path of letters, `/` and `-`) in the `index`-th mail to `to`. */
  tokenLink(to: string, path: string, index?: number): Promise<string>;
  close(): Promise<void>;
}

const decodeQuotedPrintable = (raw: string) =>
  raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

/** A real SMTP server on 127.0.0.1 (the one `npm start` runs) that keeps what it receives. */
export async function startSmtpReceiver(): Promise<SmtpReceiver> {
  const mails: ReceivedMail[] = [];
  const server = await startSmtpServer((message) => {
    mails.push({
      from: message.from,
      to: message.to,
      text: decodeQuotedPrintable(message.raw.toString('utf8')),
    });
  });
  const mailTo = async (to: string, index = 0) => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const mine = mails.filter((m) => m.to.includes(to));
      if (mine.length > index) return mine[index]!;
      if (Date.now() > deadline) throw new Error(`no mail to ${to} within 10 s`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  return {
    url: server.url,
    mails,
    mailTo,
    async tokenLink(to, path, index = 0) {
      const { text } = await mailTo(to, index);
      const link = new RegExp(`https?://\\S+${path}\\?token=[\\w%-]+`).exec(text)?.[0];
      assert.ok(link, `a link to ${path} in the mail to ${to}: ${text}`);
      return link;
    },
    close: () => server.close(),
  };
}
