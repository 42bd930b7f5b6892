/** `npm run serve`: the reference service on PORT (default 8787) until SIGINT or SIGTERM. */
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
  });
  const stop = () => {
    void service.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (err) {
  if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') {
    console.error(`Port ${port} is already in use: stop the other server, or start with PORT=<another port>.`);
  } else {
    console.error(err);
  }
  process.exit(1);
}
