/**
 * A real SMTP server on loopback (the `smtp-server` package) for the mail tests: it receives what
 * the service's mail worker sends over a real connection, parses each message (`mailparser`) and can
 * be told to refuse, or to hold, what comes next.
 */
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface TestSmtp {
  /** `smtp://127.0.0.1:<port>`, for SMTP_URL. */
  url: string;
  /** Every message received, oldest first. */
  received: ParsedMail[];
  /** The next message received (or one received already and not taken yet). */
  next(): Promise<ParsedMail>;
  /** Forgets the messages not taken yet: `next()` waits for a new one. */
  skip(): void;
  /**
   * How messages are answered from now on: taken (default), refused with a temporary error, refused
   * for good (550, naming the recipient, as Postfix does), or held until `release()`.
   */
  mode: 'accept' | 'refuse' | 'reject' | 'hold';
  /** Answers the held messages (taken). */
  release(): void;
  /** How many messages are held now. */
  readonly held: number;
  /** Resolves once a message is held. */
  whenHeld(): Promise<void>;
  close(): Promise<void>;
}

/** The one address a message went to. */
export const recipient = (mail: ParsedMail) => (mail.to && !Array.isArray(mail.to) ? mail.to.text : '');

export async function startSmtp(): Promise<TestSmtp> {
  const received: ParsedMail[] = [];
  let taken = 0;
  const waiting: ((mail: ParsedMail) => void)[] = [];
  const held: (() => void)[] = [];
  const holdWaiters: (() => void)[] = [];
  const smtp: TestSmtp = {
    url: '',
    received,
    mode: 'accept',
    next() {
      if (taken < received.length) return Promise.resolve(received[taken++]!);
      return new Promise((resolve) => waiting.push(resolve));
    },
    skip() {
      taken = received.length;
    },
    release() {
      for (const answer of held.splice(0)) answer();
    },
    get held() {
      return held.length;
    },
    whenHeld: () => (held.length > 0 ? Promise.resolve() : new Promise((resolve) => holdWaiters.push(resolve))),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const take = () => {
          void simpleParser(Buffer.concat(chunks)).then((mail) => {
            callback();
            received.push(mail);
            const waiter = waiting.shift();
            if (waiter) {
              taken += 1;
              waiter(mail);
            }
          }, callback);
        };
        if (smtp.mode === 'refuse') {
          const error = Object.assign(new Error('Mailbox busy, try again later'), { responseCode: 451 });
          callback(error);
        } else if (smtp.mode === 'reject') {
          const to = session.envelope.rcptTo[0]?.address ?? '';
          callback(Object.assign(new Error(`<${to}>: Recipient address rejected: User unknown`), { responseCode: 550 }));
        } else if (smtp.mode === 'hold') {
          held.push(take);
          for (const waiter of holdWaiters.splice(0)) waiter();
        } else take();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  smtp.url = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  return smtp;
}
