/**
 * The service's log: JSON lines (pino) in production, for a log collector; plain lines in
 * development, for a person at a terminal. Requests are logged with an id (also sent back as
 * `X-Request-Id`, so that support can find a visitor's request), the method, the path without its
 * query, the status and the time. Nothing that a query, a body or a header carries is logged: no
 * token, PIN, secret, widget key, email address or message.
 */
import pino from 'pino';

export interface Logger {
  /** A line for the operator (start-up, stop). */
  info(message: string, fields?: Record<string, unknown>): void;
  /** Something failed: the message, and the error with its stack. */
  error(message: string, err?: unknown, fields?: Record<string, unknown>): void;
  /** One answered request. */
  request(fields: { id: string; method: string; path: string; status: number; ms: number }): void;
}

export function createLogger(opts: { format: 'json' | 'text'; quiet?: boolean; destination?: NodeJS.WritableStream }): Logger {
  if (opts.format === 'json') {
    const out = pino(
      { base: undefined, timestamp: pino.stdTimeFunctions.isoTime, formatters: { level: (label) => ({ level: label }) } },
      opts.destination ?? process.stdout,
    );
    return {
      info: (message, fields = {}) => out.info(fields, message),
      error: (message, err, fields = {}) => out.error({ ...fields, err }, message),
      request: (fields) => out.info({ req: fields }, 'request'),
    };
  }
  const write = (line: string) => (opts.destination ? opts.destination.write(`${line}\n`) : console.log(line));
  return {
    info: (message) => !opts.quiet && write(message),
    error: (message, err) => {
      if (!opts.destination)
        return console.error(`[service] ${message}${err === undefined ? '' : ':'}`, ...(err === undefined ? [] : [err]));
      const cause = err === undefined ? '' : `: ${err instanceof Error ? (err.stack ?? String(err)) : String(err)}`;
      opts.destination.write(`[service] ${message}${cause}\n`);
    },
    // A development terminal shows the start and the errors; a request per line would drown them.
    request: () => {},
  };
}
