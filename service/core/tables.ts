/** Tables of the service's own machinery: its settings, the idempotency records, the outbox. */
import type { Generated } from 'kysely';

export interface CoreTables {
  meta: { k: string; v: string };
  /** One row per (scope, Idempotency-Key): the hash of the request and the answer it got. */
  idempotency: {
    scope: string;
    key: string;
    request_hash: string;
    status: number;
    response: string;
    created_at: number;
  };
  /** The mail queue (core/outbox.ts, core/mail.ts). */
  outbox: {
    id: Generated<number>;
    to_addr: string;
    subject: string;
    text: string;
    link: string | null;
    pin: string | null;
    /** When it was queued (the name is older than the queue). */
    sent_at: number;
    status: 'queued' | 'sent' | 'failed' | 'outbox';
    attempts: number;
    /** When the worker tries it (next); null once sent or given up. */
    next_attempt_at: number | null;
    last_error: string | null;
    /** When the mail server took it. */
    delivered_at: number | null;
    from_name: string | null;
    html: string | null;
    locale: string;
  };
}
