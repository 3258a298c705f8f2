import nodemailer from 'nodemailer';
import { DomainError } from '../../platform/errors.ts';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
}

/** Mail over SMTP (SMTP_URL, e.g. smtp://user:pass@mail.example:587); without it, sending answers 503. */
export function smtpMailer(smtpUrl: string | undefined, from: string): Mailer {
  const transport = smtpUrl ? nodemailer.createTransport(smtpUrl) : undefined;
  return {
    async send(mail) {
      if (!transport) {
        throw new DomainError('unavailable', 'mail_unavailable', 'E-mail is not configured (SMTP_URL).');
      }
      await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
    },
  };
}
