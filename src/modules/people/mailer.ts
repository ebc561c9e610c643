import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import nodemailer from 'nodemailer';
import type { Kernel } from '../../core/deps.js';
import { newId } from '../../lib/ids.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Outgoing mail (invitations, password resets). */
export interface Mailer {
  /** Sends the message; `file` is where it was written when no SMTP server is configured. */
  send(message: MailMessage): Promise<{ file?: string }>;
  close(): void;
}

declare module '../../core/deps.js' {
  interface Deps {
    readonly mailer: Mailer;
  }
}

/** Where .eml files go when SVC_SMTP_URL is unset: `<data dir>/mail` (the system temp dir for an in-memory database). */
export function mailDirectory(dataDir: string): string {
  return dataDir.startsWith('memory://') ? join(tmpdir(), 'svc-mail') : resolve(dataDir, 'mail');
}

/**
 * nodemailer configured by SVC_SMTP_URL (`smtp://user:pass@host:587`, `smtps://…`); unset, each message
 * is written as an .eml file under the data directory and the log says where (never what it says: the
 * links it carries are secrets).
 */
export function createMailer(kernel: Pick<Kernel, 'config' | 'log'>): Mailer {
  const { config, log } = kernel;
  const from = config.mailFrom;
  if (config.smtpUrl) {
    const transport = nodemailer.createTransport(config.smtpUrl);
    return {
      async send(m) {
        await transport.sendMail({ from, to: m.to, subject: m.subject, text: m.text });
        log.info({ subject: m.subject }, 'mail sent');
        return {};
      },
      close: () => transport.close(),
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const dir = mailDirectory(config.dataDir);
  return {
    async send(m) {
      const info = await transport.sendMail({ from, to: m.to, subject: m.subject, text: m.text });
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const file = join(dir, `${newId('mail')}.eml`);
      await writeFile(file, info.message as Buffer, { mode: 0o600 });
      log.info({ file, subject: m.subject }, 'SVC_SMTP_URL is unset: mail written to a file');
      return { file };
    },
    close: () => transport.close(),
  };
}
