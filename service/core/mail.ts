/**
 * The mail worker: sends the queued emails (core/outbox.ts) through SMTP (nodemailer, `SMTP_URL`),
 * after the answers that queued them, so that a slow or failing mail server never slows or fails a
 * request and nothing is lost. A message that fails is tried again after a growing wait (30 seconds,
 * then twice as long each time, at most an hour, on the service clock); after `MAX_ATTEMPTS` it is
 * marked failed and logged. Without a mail server (development) a message stays in the outbox for
 * `GET /dev/outbox` only.
 */
import nodemailer, { type Transporter } from 'nodemailer';
import type { Clock } from './clock.ts';
import type { Store } from '../db/database.ts';

export const MAX_ATTEMPTS = 8;
const FIRST_WAIT_MS = 30_000;
const LONGEST_WAIT_MS = 60 * 60_000;
/** How long a message being sent is the worker's: longer than a send may take (three 20 s timeouts). */
const LEASE_MS = 2 * 60_000;
/** How often the worker looks for due messages (a message queued is usually sent within this). */
const POLL_MS = 1000;

/** The wait before the attempt after `attempts` failed ones. */
export const retryWait = (attempts: number) => Math.min(LONGEST_WAIT_MS, FIRST_WAIT_MS * 2 ** (attempts - 1));

export interface MailSettings {
  /** `smtp://` or `smtps://`, with user and password in it. */
  url: string;
  /** The address mail is sent from; the company's name is its display name. */
  from: string;
}

export class MailWorker {
  readonly #store: Store;
  readonly #clock: Clock;
  readonly #transport: Transporter | undefined;
  readonly #from: string | undefined;
  readonly #logError: (message: string, err: unknown) => void;
  #timer?: ReturnType<typeof setInterval>;
  #running?: Promise<void>;
  #stopped = false;

  readonly #keepSecrets: boolean;

  constructor(opts: {
    store: Store;
    clock: Clock;
    smtp: MailSettings | undefined;
    logError: (message: string, err: unknown) => void;
    /** Development keeps each message's PIN and link for `/dev/outbox`; production forgets them once sent. */
    keepSecrets?: boolean;
  }) {
    this.#keepSecrets = opts.keepSecrets ?? false;
    this.#store = opts.store;
    this.#clock = opts.clock;
    this.#logError = opts.logError;
    this.#from = opts.smtp?.from;
    // One connection at a time, reused; a server that does not answer is given up after 20 s (its
    // message waits for the next attempt) rather than hold the queue for minutes.
    this.#transport = opts.smtp
      ? nodemailer.createTransport({
          url: opts.smtp.url,
          pool: true,
          maxConnections: 1,
          connectionTimeout: 20_000,
          greetingTimeout: 20_000,
          socketTimeout: 20_000,
        } as Parameters<typeof nodemailer.createTransport>[0])
      : undefined;
  }

  start(): void {
    this.#timer = setInterval(() => void this.run(), POLL_MS);
    this.#timer.unref();
    // A wrong host or password is said at start, not an hour later by the first message given up.
    this.#transport
      ?.verify()
      .catch((err: unknown) =>
        this.#logError(
          'the mail server (SMTP_URL) does not take mail now; emails wait in the queue until it does',
          String((err as Error).message ?? err).replace(/[^\s<>"'@]+@[^\s<>"'@]+/g, '<address>'),
        ),
      );
  }

  /** Sends what is due now; resolves when done (a run already going is joined). */
  run(): Promise<void> {
    if (this.#stopped) return Promise.resolve();
    this.#running ??= this.#drain()
      // The store failed under it (or closed at a stop): the round ends, the next one tries again.
      .catch((err: unknown) => {
        if (!this.#stopped) this.#logError('the mail worker could not finish a round', err);
      })
      .finally(() => (this.#running = undefined));
    return this.#running;
  }

  /**
   * Stops looking for mail; a message being sent is given at most `waitMs` to finish (else it stays
   * queued, for the next start).
   */
  async stop(waitMs = 5000): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#timer);
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([this.#running, new Promise((resolve) => (timer = setTimeout(resolve, waitMs)))]);
    clearTimeout(timer);
    this.#transport?.close();
  }

  /**
   * What the store keeps of a message once it is sent or given up: in production not its PIN or its
   * sign-in link (they are secrets, and a backup would carry them), in its text neither.
   */
  #forget(mail: { pin: string | null; link: string | null; text: string; html: string | null }) {
    if (this.#keepSecrets || (!mail.pin && !mail.link)) return {};
    const secrets = [mail.link, mail.link?.replace(/&/g, '&amp;'), mail.pin].filter((v): v is string => !!v);
    const hide = (text: string) => secrets.reduce((t, secret) => t.split(secret).join('[sent]'), text);
    return { pin: null, link: null, text: hide(mail.text), html: mail.html === null ? null : hide(mail.html) };
  }

  async #drain(): Promise<void> {
    const { db } = this.#store;
    for (;;) {
      const now = this.#clock.now();
      let due;
      try {
        due = await db
          .selectFrom('outbox')
          .selectAll()
          .where('status', '=', 'queued')
          .where('next_attempt_at', '<=', now)
          .orderBy('id')
          .limit(20)
          .execute();
      } catch (err) {
        // Stopped meanwhile: the store was closed under the read (a stop without grace), nothing is wrong.
        if (this.#stopped) return;
        // The store itself is unusable (readiness says so): try again on the next round.
        return this.#logError('the mail worker could not read the queue', err);
      }
      if (due.length === 0) return;
      for (const mail of due) {
        if (this.#stopped) return;
        if (!this.#transport) {
          await db.updateTable('outbox').set({ status: 'outbox', next_attempt_at: null }).where('id', '=', mail.id).execute();
          continue;
        }
        // Claimed before it is sent: due again only after the lease, so that a store that takes no
        // writes (its file gone) sends nothing, a worker that dies mid-send leaves it to a later try,
        // and two workers never send one message (the second finds it claimed).
        const claimed = await db
          .updateTable('outbox')
          .set({ next_attempt_at: now + LEASE_MS })
          .where('id', '=', mail.id)
          .where('status', '=', 'queued')
          .where('next_attempt_at', '<=', now)
          .executeTakeFirst();
        if (Number(claimed.numUpdatedRows) === 0) continue;
        try {
          await this.#transport.sendMail({
            from: mail.from_name ? { name: mail.from_name, address: this.#from! } : this.#from!,
            to: mail.to_addr,
            subject: mail.subject,
            text: mail.text,
            ...(mail.html ? { html: mail.html } : {}),
            headers: { 'Content-Language': mail.locale },
          });
          await db
            .updateTable('outbox')
            .set({
              status: 'sent',
              delivered_at: this.#clock.now(),
              next_attempt_at: null,
              attempts: mail.attempts + 1,
              ...this.#forget(mail),
            })
            .where('id', '=', mail.id)
            .execute();
        } catch (err) {
          const attempts = mail.attempts + 1;
          // A permanent refusal (5xx: no such mailbox) is not tried again; a temporary one is, later.
          const permanent = Number((err as { responseCode?: unknown }).responseCode) >= 500;
          const failed = permanent || attempts >= MAX_ATTEMPTS;
          // The server's words, never the message, and no address: no PIN, link or email reaches the log.
          const reason = String((err as Error).message ?? err)
            .replace(/[^\s<>"'@]+@[^\s<>"'@]+/g, '<address>')
            .slice(0, 500);
          await db
            .updateTable('outbox')
            .set({
              status: failed ? 'failed' : 'queued',
              attempts,
              last_error: reason,
              next_attempt_at: failed ? null : this.#clock.now() + retryWait(attempts),
              ...(failed ? this.#forget(mail) : {}),
            })
            .where('id', '=', mail.id)
            .execute();
          if (failed) this.#logError(`email ${mail.id} given up after ${attempts} attempt${attempts === 1 ? '' : 's'}`, reason);
          else
            this.#logError(
              `email ${mail.id} not sent (attempt ${attempts} of ${MAX_ATTEMPTS}, next in ${retryWait(attempts) / 1000} s)`,
              reason,
            );
        }
      }
    }
  }
}
