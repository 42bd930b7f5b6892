/**
 * The reference service as a program: its settings from the environment (PORT, default 8787; HOST,
 * DATA_DIR, PUBLIC_URL, where its links point; TRUST_PROXY, comma-separated addresses of reverse
 * proxies whose X-Forwarded-For is believed), running until SIGINT (Ctrl+C), SIGTERM, or the end of
 * the process that started it. `npm run serve` (main.ts) and `npm start` (scripts/start.mjs, which
 * tells the start in its own words) run it.
 */
import { startService, type RunningService } from './server.ts';

export async function runService(opts: { quiet?: boolean } = {}): Promise<RunningService> {
  const port = Number(process.env.PORT ?? 8787);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`PORT must be a port number (0-65535), not "${process.env.PORT}".`);
    process.exit(1);
  }

  try {
    const service = await startService({
      port,
      ...(opts.quiet ? { quiet: true } : {}),
      ...(process.env.HOST ? { host: process.env.HOST } : {}),
      ...(process.env.DATA_DIR ? { dataDir: process.env.DATA_DIR } : {}),
      ...(process.env.PUBLIC_URL ? { publicUrl: process.env.PUBLIC_URL } : {}),
      ...(process.env.TRUST_PROXY ? { trustProxy: process.env.TRUST_PROXY.split(',') } : {}),
    });
    if (process.env.NODE_ENV === 'production' && !process.env.PUBLIC_URL) {
      console.warn(
        `PUBLIC_URL is not set: emailed links point to ${service.publicUrl}. Set it to the address people reach the service at.`,
      );
    }
    let stopping = false;
    const stop = () => {
      // A second Ctrl+C does not wait for the first to finish.
      if (stopping) process.exit(130);
      stopping = true;
      void service.close().then(() => process.exit(0));
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    // `kill <pid of npm>` ends npm and its shell, but no signal reaches this process: it is handed to
    // init instead. Noticing the new parent, it stops as on SIGTERM and frees the port.
    const parent = process.ppid;
    setInterval(() => {
      if (process.ppid !== parent) stop();
    }, 250).unref();
    return service;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      console.error(`Port ${port} is already in use: stop the other server, or start with PORT=<another port>.`);
    } else {
      console.error(err instanceof Error && err.message.startsWith('PUBLIC_URL') ? err.message : err);
    }
    process.exit(1);
  }
}
