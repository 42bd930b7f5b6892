/**
 * `npm run serve` as a process of its own on a PostgreSQL database, for the tests of several
 * processes: its URL once it listens, its request log (JSON lines), and its exit.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { createInterface } from 'node:readline';
import { REPO_ROOT } from '../../server.ts';

export interface Process {
  child: ChildProcess;
  url: string;
  port: number;
  /** The paths of the requests it has answered, in order (its JSON request log). */
  requests: string[];
  /** Tells `request` as each line of its request log is read (a moment after the answer). */
  events: EventEmitter;
  exited: Promise<number | null>;
}

/** Every process started here; `stopAll` ends those still running (no service outlives its test). */
const children: ChildProcess[] = [];

/** Resolves once the process listens; rejects, with what it wrote to stderr, if it stops first. */
export function serve(databaseUrl: string, dataDir: string, env: Record<string, string> = {}): Promise<Process> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'service/main.ts', '--development'], {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: '0',
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      LOG_FORMAT: 'json',
      TRUST_PROXY: '127.0.0.1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  children.push(child);
  const requests: string[] = [];
  const events = new EventEmitter();
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const entry = JSON.parse(line) as { msg?: string; req?: { path: string } };
      if (entry.req) {
        requests.push(entry.req.path);
        events.emit('request');
      }
      const port = /^Service widgets running at http:\/\/[^/]*:(\d+)\//.exec(entry.msg ?? '')?.[1];
      if (port) resolve({ child, url: `http://127.0.0.1:${port}`, port: Number(port), requests, events, exited });
    });
    void exited.then((code) => reject(new Error(`the service stopped (${code}): ${stderr}`)));
  });
}

/** Resolves once the request logs of these processes hold `total` lines together. */
export function logged(processes: Process[], total: number): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (processes.reduce((n, p) => n + p.requests.length, 0) < total) return;
      for (const p of processes) p.events.off('request', check);
      resolve();
    };
    for (const p of processes) p.events.on('request', check);
    check();
  });
}

/** SIGTERM to every process still running, and their exits. */
export async function stopAll(): Promise<void> {
  const running = children.filter((child) => child.exitCode === null && child.signalCode === null);
  await Promise.all(running.map((child) => new Promise((resolve) => (child.once('exit', resolve), child.kill('SIGTERM')))));
}
