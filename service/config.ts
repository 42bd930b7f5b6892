/**
 * The service's settings, read once at start from the environment into one typed object. Every
 * setting that is missing or wrong is named at once, with how to set it, and the service does not
 * start (docs/service.md, "Settings").
 *
 * Development is opt-in: `SERVICE_MODE=development` (or `NODE_ENV=development`), or the
 * `--development` flag that `npm start` and `npm run serve` pass, which counts only while
 * `PUBLIC_URL` is unset or names this machine. Anything else runs in production, which needs an https `PUBLIC_URL`, a mail transport and a store, and serves nothing of the demo.
 */
import { isIP } from 'node:net';
import { isAbsolute, resolve } from 'node:path';

export type Mode = 'development' | 'production';

export interface ServiceConfig {
  mode: Mode;
  port: number;
  host: string;
  /** The address people reach the service at, normalised (`https://booking.example.com/eu`); undefined: `http://localhost:<port>`. */
  publicUrl: string | undefined;
  /** The folder of the SQLite store; undefined in development: `<repo>/data`. */
  dataDir: string | undefined;
  /** A PostgreSQL database instead of the SQLite file: several processes may share it. */
  databaseUrl: string | undefined;
  /** Where mail goes: an `smtp://` or `smtps://` URL (user and password in it), and the sender's address. */
  smtp: { url: string; from: string } | undefined;
  /** Reverse proxies whose `X-Forwarded-For` is believed. */
  trustProxy: string[];
  /** JSON lines (production's default) or plain text lines (development's). */
  logFormat: 'json' | 'text';
  /** How long a stop (SIGTERM) waits for the requests in flight before it closes their connections. */
  shutdownGraceMs: number;
}

/** A service that cannot start: every problem, each saying how to fix it. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`The service cannot start:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const LOCAL = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\]|.+\.localhost)$/;

/** `https://Example.com/base/` → `https://example.com/base`; a clear error for anything but an http(s) URL. */
export function normalisePublicUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`PUBLIC_URL must be an absolute http(s) URL such as https://booking.example.com, not "${value}".`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password || url.search || url.hash) {
    throw new Error(`PUBLIC_URL must be an http(s) URL without user, query or fragment, not "${value}".`);
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** Whether a public URL names this machine (a development address). */
export const isLocalUrl = (publicUrl: string) => LOCAL.test(new URL(publicUrl).hostname);

const EMAIL = /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/;

/**
 * The settings of `env`. `development`: the caller opted in (a flag); an explicit `SERVICE_MODE` or
 * `NODE_ENV` wins over it.
 */
export function readConfig(
  env: NodeJS.ProcessEnv = process.env,
  opts: {
    development?: boolean;
    /** `store`: only what reaches the store is needed (the support tool). */
    only?: 'store';
  } = {},
): ServiceConfig {
  const problems: string[] = [];
  const value = (name: string) => {
    const v = env[name]?.trim();
    return v === '' ? undefined : v;
  };

  let mode: Mode = opts.development ? 'development' : 'production';
  const explicit =
    value('SERVICE_MODE') ?? (['development', 'production'].includes(value('NODE_ENV') ?? '') ? value('NODE_ENV') : undefined);
  if (explicit === 'development' || explicit === 'production') mode = explicit;
  else if (explicit !== undefined) problems.push(`SERVICE_MODE must be "development" or "production", not "${explicit}".`);

  const portText = value('PORT') ?? '8787';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) problems.push(`PORT must be a port number (0-65535), not "${portText}".`);

  let publicUrl: string | undefined;
  const publicText = value('PUBLIC_URL');
  if (publicText !== undefined) {
    try {
      publicUrl = normalisePublicUrl(publicText);
    } catch (err) {
      problems.push((err as Error).message);
    }
  }
  // The flag (`npm start`) opts in on this machine only: a service people reach at an address of
  // another machine runs in production unless SERVICE_MODE says otherwise (its outbox would hold
  // every PIN for anyone to read).
  let inferred = false;
  if (explicit === undefined && mode === 'development' && publicUrl !== undefined && !isLocalUrl(publicUrl)) {
    mode = 'production';
    inferred = true;
  }

  const dataText = value('DATA_DIR');
  const dataDir = dataText === undefined ? undefined : isAbsolute(dataText) ? dataText : resolve(dataText);
  const databaseUrl = value('DATABASE_URL');
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\/[^/]/i.test(databaseUrl)) {
    problems.push(
      `DATABASE_URL must be a PostgreSQL URL such as postgres://booking:password@db.example.com:5432/booking, not one starting "${databaseUrl.split(':')[0]!.slice(0, 20)}:".`,
    );
  }
  const smtpUrl = value('SMTP_URL');
  const smtpFrom = value('SMTP_FROM');
  if (smtpUrl !== undefined) {
    let valid = /^smtps?:\/\/[^/]/i.test(smtpUrl);
    try {
      if (valid) valid = new URL(smtpUrl).hostname !== '';
    } catch {
      valid = false;
    }
    // Never the value itself: it holds the password.
    if (!valid) {
      problems.push(
        'SMTP_URL must be an smtp:// or smtps:// URL, such as smtps://user:password@mail.example.com:465 (a port of digits; in the user and password, write / # ? @ : % and spaces as %2F %23 %3F %40 %3A %25 %20).',
      );
    }
  }
  if (smtpFrom !== undefined && !EMAIL.test(smtpFrom)) {
    problems.push(`SMTP_FROM must be the email address mail is sent from, such as bookings@example.com, not "${smtpFrom}".`);
  }
  if ((smtpUrl === undefined) !== (smtpFrom === undefined)) {
    problems.push(
      smtpUrl === undefined
        ? 'SMTP_URL is missing: SMTP_FROM needs the server to send through.'
        : 'SMTP_FROM is missing: the address mail is sent from, such as bookings@example.com.',
    );
  }

  const trustProxy = (value('TRUST_PROXY') ?? '')
    .split(',')
    .map((a) => a.trim().toLowerCase())
    .filter(Boolean);
  for (const address of trustProxy) {
    const [ip, prefix, more] = address.split('/');
    const family = isIP(ip!);
    const network = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 6 ? 128 : 32));
    if (!family || !network || more !== undefined) {
      problems.push(
        `TRUST_PROXY lists the proxies (comma-separated addresses or networks, such as 10.0.0.1 or 10.0.0.0/8), and "${address}" is none.`,
      );
    }
  }

  const logText = value('LOG_FORMAT');
  if (logText !== undefined && logText !== 'json' && logText !== 'text') {
    problems.push(`LOG_FORMAT must be "json" or "text", not "${logText}".`);
  }
  const graceText = value('SHUTDOWN_GRACE_MS') ?? '10000';
  if (!/^\d+$/.test(graceText)) problems.push(`SHUTDOWN_GRACE_MS must be a number of milliseconds, not "${graceText}".`);

  if (mode === 'production' && opts.only !== 'store') {
    if (publicUrl === undefined && publicText === undefined) {
      problems.push(
        'PUBLIC_URL is missing: the https:// address people reach the service at, such as https://booking.example.com.',
      );
    } else if (publicUrl !== undefined && !publicUrl.startsWith('https://')) {
      problems.push(`PUBLIC_URL must be an https:// address in production (emailed links and pages use it), not "${publicUrl}".`);
    }
    if (smtpUrl === undefined && smtpFrom === undefined) {
      problems.push(
        'SMTP_URL and SMTP_FROM are missing: the mail server (smtps://user:password@mail.example.com:465) and the address mail is sent from. Confirmations and sign-in PINs go out by email.',
      );
    }
  }
  if (mode === 'production' && dataDir === undefined && databaseUrl === undefined) {
    problems.push(
      'DATA_DIR or DATABASE_URL is missing: the folder of the SQLite store of a service on one machine (such as /var/lib/booking), or a PostgreSQL database for several processes (postgres://booking:password@db.example.com:5432/booking).',
    );
  }
  // Both: one of them would be passed by without a word (PostgreSQL was used, the folder forgotten).
  // (The support tool takes DATABASE_URL first, as its help says.)
  if (mode === 'production' && opts.only !== 'store' && dataDir !== undefined && databaseUrl !== undefined) {
    problems.push(
      'DATA_DIR and DATABASE_URL are both set, and the service keeps its store in one: unset DATA_DIR to keep it in PostgreSQL, or DATABASE_URL to keep it in the SQLite folder.',
    );
  }
  if (inferred && problems.length > 0) {
    problems.push(
      `PUBLIC_URL (${publicUrl}) is not this machine, so the service runs in production. For a demo that others reach (with its outbox of every PIN open to them), set SERVICE_MODE=development.`,
    );
  }
  if (problems.length > 0) throw new ConfigError(problems);

  return {
    mode,
    port,
    host: value('HOST') ?? '127.0.0.1',
    publicUrl,
    dataDir,
    databaseUrl,
    smtp: smtpUrl !== undefined && smtpFrom !== undefined ? { url: smtpUrl, from: smtpFrom } : undefined,
    trustProxy,
    logFormat: (logText as 'json' | 'text' | undefined) ?? (mode === 'production' ? 'json' : 'text'),
    shutdownGraceMs: Number(graceText),
  };
}
