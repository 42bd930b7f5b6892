/**
 * `npm run serve`: the reference service on PORT (default 8787) until SIGINT or SIGTERM. Settings
 * from the environment: PORT, HOST, DATA_DIR, PUBLIC_URL (where its links point), TRUST_PROXY
 * (comma-separated addresses of reverse proxies whose X-Forwarded-For is believed).
 */
import { startService } from './server.ts';

const port = Number(process.env.PORT ?? 8787);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be a port number (0-65535), not "${process.env.PORT}".`);
  process.exit(1);
}

try {
  const service = await startService({
    port,
    ...(process.env.HOST ? { host: process.env.HOST } : {}),
    ...(process.env.DATA_DIR ? { dataDir: process.env.DATA_DIR } : {}),
    ...(process.env.PUBLIC_URL ? { publicUrl: process.env.PUBLIC_URL } : {}),
    ...(process.env.TRUST_PROXY ? { trustProxy: process.env.TRUST_PROXY.split(',') } : {}),
  });
  if (process.env.NODE_ENV === 'production' && !process.env.PUBLIC_URL) {
    console.warn(`PUBLIC_URL is not set: emailed links point to ${service.publicUrl}. Set it to the address people reach the service at.`);
  }
  const stop = () => {
    void service.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (err) {
  if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') {
    console.error(`Port ${port} is already in use: stop the other server, or start with PORT=<another port>.`);
  } else {
    console.error(err instanceof Error && err.message.startsWith('PUBLIC_URL') ? err.message : err);
  }
  process.exit(1);
}
