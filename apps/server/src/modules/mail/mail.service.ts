import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createTransport } from 'nodemailer';
import type { Locale } from '@paydesk/shared/notifications/notifications.schemas.ts';
import type { Tx } from '../../db/client.ts';
import type { JobQueue } from '../../db/jobs.ts';
import { renderMail } from './render.ts';
import type { MailTemplate, MailTemplateParams } from './templates.ts';

/** One mail to queue: the recipient, their language, the template and its parameters. */
export type QueueMailInput<T extends MailTemplate = MailTemplate> = {
  to: string;
  locale: Locale;
  template: T;
  params: MailTemplateParams[T];
};

/** The `mail.send` job's data: the mail rendered when it was queued, so a retry sends the same mail. */
export type MailJob = { to: string; subject: string; text: string; html: string; template: string };

/** Where mail goes: SMTP_URL's server, or an .eml file per mail in DATA_DIR/mail (the embedded default). */
export type MailDelivery = { kind: 'smtp'; host: string } | { kind: 'files'; dir: string };

type Deps = {
  jobs: Pick<JobQueue, 'send'>;
  /** config.mail.smtpUrl: unset writes files. */
  smtpUrl: string | undefined;
  from: string;
  dataDir: string;
  now: () => Date;
  log: (detail: Record<string, unknown>, message: string) => void;
};

/** The host of SMTP_URL without its user and password (what the log may show). */
const hostOf = (smtpUrl: string) => {
  try {
    const url = new URL(smtpUrl);
    return url.port ? `${url.hostname}:${url.port}` : url.hostname;
  } catch {
    return '(SMTP_URL)';
  }
};

const isMailJob = (data: Record<string, unknown>): data is MailJob =>
  ['to', 'subject', 'text', 'html'].every((key) => typeof data[key] === 'string');

export function createMailService({ jobs, smtpUrl, from, dataDir, now, log }: Deps) {
  const delivery: MailDelivery = smtpUrl
    ? { kind: 'smtp', host: hostOf(smtpUrl) }
    : { kind: 'files', dir: path.join(dataDir, 'mail') };
  // A server that does not answer fails the attempt in seconds; the job's retries try again later.
  const smtp = smtpUrl
    ? createTransport({
        url: smtpUrl,
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 30_000,
      })
    : null;
  const composer = createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  let sequence = 0;

  /**
   * Renders the template in the recipient's language and queues its sending in the caller's transaction:
   * a rollback drops the mail, and a mail server that is down delays it without failing the change.
   */
  async function queue<T extends MailTemplate>(tx: Tx, input: QueueMailInput<T>): Promise<void> {
    const rendered = renderMail(input.template, input.locale, input.params);
    const job: MailJob = { to: input.to, template: input.template, ...rendered };
    await jobs.send(tx, 'mail.send', job);
  }

  /** The `mail.send` job: sends the mail (throws while the server fails, and pg-boss retries). */
  async function deliver(data: Record<string, unknown>): Promise<{ path?: string; messageId: string }> {
    if (!isMailJob(data)) throw new Error('A mail.send job without its mail.');
    const message = { from, to: data.to, subject: data.subject, text: data.text, html: data.html };
    if (smtp) {
      const info = await smtp.sendMail(message);
      log({ to: data.to, template: data.template, messageId: info.messageId }, 'mail sent');
      return { messageId: info.messageId };
    }
    const info = await composer.sendMail(message);
    await mkdir(delivery.kind === 'files' ? delivery.dir : dataDir, { recursive: true });
    const stamp = now().toISOString().replace(/[:.]/g, '-');
    const safeTo = data.to.replace(/[^A-Za-z0-9@._-]/g, '_').slice(0, 80);
    const file = path.join(
      (delivery as { dir: string }).dir,
      `${stamp}-${process.pid}-${++sequence}-${data.template}-${safeTo}.eml`,
    );
    await writeFile(file, info.message as Buffer);
    log({ to: data.to, template: data.template, path: file }, `mail written to ${file}`);
    return { path: file, messageId: info.messageId };
  }

  return { queue, deliver, delivery };
}

export type MailService = ReturnType<typeof createMailService>;
