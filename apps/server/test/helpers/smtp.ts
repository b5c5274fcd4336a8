import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { type Db, queryRows } from '../../src/db/client.ts';

export type TestSmtpServer = Awaited<ReturnType<typeof startSmtpServer>>;

/**
 * A real SMTP server on 127.0.0.1 (no TLS, no login) that keeps every mail it receives, parsed, in
 * `received`. `stop` then `start` takes it down and brings it back on the same port: a mail server that
 * was down for a while.
 */
export async function startSmtpServer() {
  const received: ParsedMail[] = [];
  let server: SMTPServer | undefined;
  let port = 0;
  const start = async () => {
    const listening = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, _session, callback) {
        simpleParser(stream)
          .then((mail) => {
            received.push(mail);
            callback();
          })
          .catch(callback);
      },
    });
    server = listening;
    port = await new Promise<number>((resolve) =>
      listening.listen(port, '127.0.0.1', () => resolve((listening.server.address() as AddressInfo).port)),
    );
  };
  const stop = () => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await start();
  return { received, url: `smtp://127.0.0.1:${port}`, start, stop };
}

/** The first recipient's address of a received mail. */
export const recipientOf = (mail: ParsedMail) => (Array.isArray(mail.to) ? mail.to[0] : mail.to)?.text;

/** The mail jobs (`mail.send`) queued so far, oldest first: what a test then delivers as the worker does. */
export const queuedMailJobs = (db: Db) =>
  queryRows<{ id: string; data: Record<string, unknown> }>(
    db,
    sql`select id::text as id, data from pgboss.job where name = 'mail.send' order by created_on, id`,
  );
