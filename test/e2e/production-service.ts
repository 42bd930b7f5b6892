/**
 * The service as an operator starts it, for the end-to-end tests of production: its own process with
 * only its settings (no demo, no outbox), a real SMTP server on loopback that receives its email, and
 * the support tool on its store.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ProductionService {
  /** Where this machine reaches it: `http://127.0.0.1:<port>`. */
  url: string;
  /** The line it logged when it started. */
  started: string;
  /** Its data folder (and a place for the test's own files). */
  folder: string;
  /** The next email the SMTP server receives (or one received and not taken yet). */
  nextMail(): Promise<ParsedMail>;
  /** `npm run support -- <argv> --json` on its store: the JSON answer. */
  support<T = Record<string, unknown>>(...argv: string[]): T;
  /** Support opens the company Acme Training with its owner Olivia at `ownerEmail`: its id. */
  openCompany(ownerEmail: string): { company_id: number };
  stop(): Promise<void>;
}

/** Starts it with every setting production needs; `publicUrl` is where people reach it. */
export async function startProduction(publicUrl = 'https://booking.example.com'): Promise<ProductionService> {
  const folder = mkdtempSync(join(tmpdir(), 'production-e2e-'));
  const mails: ParsedMail[] = [];
  const waiting: ((mail: ParsedMail) => void)[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      void simpleParser(stream).then((mail) => {
        callback();
        const taker = waiting.shift();
        if (taker) taker(mail);
        else mails.push(mail);
      }, callback);
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const env = {
    PATH: process.env.PATH!,
    HOME: process.env.HOME!,
    PUBLIC_URL: publicUrl,
    DATA_DIR: folder,
    SMTP_URL: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
    SMTP_FROM: 'bookings@booking.example.com',
    PORT: '0',
    LOG_FORMAT: 'json',
  };
  const service = spawn(process.execPath, ['--import', 'tsx', 'service/main.ts'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const stop = async () => {
    service.kill('SIGTERM');
    await new Promise((resolve) => (service.exitCode === null ? service.once('exit', resolve) : resolve(null)));
    smtp.close();
    rmSync(folder, { recursive: true, force: true });
  };
  try {
    const started = await new Promise<string>((resolve, reject) => {
      createInterface({ input: service.stdout }).on('line', (line) => {
        const { msg } = JSON.parse(line) as { msg?: string };
        if (msg?.startsWith('Service widgets running at')) resolve(msg);
      });
      service.on('exit', (code) => reject(new Error(`the service stopped (${code})`)));
    });
    const support = <T>(...argv: string[]) =>
      JSON.parse(
        execFileSync(process.execPath, ['--import', 'tsx', 'service/support/cli.ts', ...argv, '--json'], {
          env: { PATH: env.PATH, HOME: env.HOME, DATA_DIR: folder },
          encoding: 'utf8',
        }),
      ) as T;
    return {
      url: `http://127.0.0.1:${/:(\d+)\//.exec(started)![1]}`,
      started,
      folder,
      nextMail: () => {
        const mail = mails.shift();
        return mail ? Promise.resolve(mail) : new Promise((resolve) => waiting.push(resolve));
      },
      support,
      openCompany: (ownerEmail) =>
        support(
          'company',
          'create',
          '--name',
          'Acme Training',
          '--owner-email',
          ownerEmail,
          '--owner-first-name',
          'Olivia',
          '--owner-last-name',
          'Owner',
        ),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
