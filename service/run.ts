/**
 * The reference service as a program: its settings from the environment (config.ts, read once; a
 * missing or wrong one stops the start, named), running until SIGINT (Ctrl+C), SIGTERM, or, started
 * by npm, the end of the npm process that started it. A stop answers the requests in flight first (SHUTDOWN_GRACE_MS).
 * `npm run serve` (main.ts) and `npm start` (scripts/start.mjs, which tells the start in its own
 * words) run it in development; `node --import tsx service/main.ts` alone runs in production.
 */
import { ConfigError, readConfig } from './config.ts';
import { StoreOpenError } from './db/database.ts';
import { startService, type RunningService } from './server.ts';

/**
 * Whether the service stops when the process that started it ends: only when npm started it (`npm
 * start`, `npm run serve`: `kill <pid of npm>` must free the port), never in a service started by
 * itself (a deploy script's `node … &`, nohup), whose parent goes once it has started it.
 */
export const stopsWithParent = (env: NodeJS.ProcessEnv) => !!env.npm_lifecycle_event;

export async function runService(opts: { quiet?: boolean; development?: boolean } = {}): Promise<RunningService> {
  let config;
  try {
    config = readConfig(process.env, { development: opts.development ?? process.argv.includes('--development') });
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(err.message);
    process.exit(1);
  }

  // The store's files (participants' emails, the queued mail's PINs until sent) are the service's
  // user's alone in production: 0600, not the usual 0644 that every user of the machine could read.
  if (config.mode === 'production') process.umask(0o077);

  // The signals are taken from the first moment: a stop asked for while the service starts waits
  // for the start, then stops it as any other.
  let service: RunningService | undefined;
  let stopping = false;
  const stop = () => {
    // A second Ctrl+C does not wait for the first to finish.
    if (stopping) process.exit(130);
    stopping = true;
    if (service) void service.stop(config.shutdownGraceMs).then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  try {
    service = await startService({
      port: config.port,
      host: config.host,
      dev: config.mode === 'development',
      logFormat: config.logFormat,
      trustProxy: config.trustProxy,
      ...(opts.quiet ? { quiet: true } : {}),
      ...(config.dataDir ? { dataDir: config.dataDir } : {}),
      ...(config.databaseUrl ? { databaseUrl: config.databaseUrl } : {}),
      ...(config.publicUrl ? { publicUrl: config.publicUrl } : {}),
      ...(config.smtp ? { smtp: config.smtp } : {}),
    });
    if (stopping) {
      await service.stop(config.shutdownGraceMs);
      process.exit(0);
    }
    // Started by npm (`npm start`, `npm run serve`): `kill <pid of npm>` ends npm and its shell, but
    // no signal reaches this process: it is handed to init instead. Noticing the new parent, it stops
    // as on SIGTERM and frees the port. Started otherwise (production: `node … service/main.ts &`,
    // nohup, a deploy script or an SSH session that ends), a new parent is no reason to stop: it
    // stopped a second after the script that started it had ended.
    if (stopsWithParent(process.env)) {
      const parent = process.ppid;
      setInterval(() => {
        if (process.ppid !== parent && !stopping) stop();
      }, 250).unref();
    }
    return service;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') {
      console.error(`Port ${config.port} is already in use: stop the other server, or start with PORT=<another port>.`);
    } else if (code === 'ENOTFOUND' || code === 'EADDRNOTAVAIL' || code === 'EAI_AGAIN') {
      console.error(
        `HOST ${config.host} is no address of this machine: use 127.0.0.1 (behind a proxy on this machine, the default) or 0.0.0.0 (every interface).`,
      );
    } else if (code === 'EACCES') {
      console.error(`Port ${config.port} needs more rights than this user has: use a port above 1023 behind a proxy.`);
    } else if (err instanceof StoreOpenError) {
      console.error(`The service cannot start: ${err.message}`);
    } else {
      console.error(err);
    }
    process.exit(1);
  }
}
