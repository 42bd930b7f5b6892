// One service process for `npm run bench` (scripts/bench.mjs starts one or two of these): the
// development service on a free port, on the SQLite folder or the PostgreSQL database of its JSON
// argument, with the rate limits lifted (the bench measures the paths, not the limits; the limiter
// still runs on every request). It prints its URL as one line of JSON and stops on SIGTERM.
import { startService } from '../service/server.ts';

const { dataDir, databaseUrl } = JSON.parse(process.argv[2] ?? '{}') as { dataDir?: string; databaseUrl?: string };
const unlimited = { max: 1e9, windowMs: 60_000 };
const service = await startService({
  port: 0,
  quiet: true,
  ...(dataDir ? { dataDir } : {}),
  ...(databaseUrl ? { databaseUrl } : {}),
  limits: {
    registration: { perAddress: unlimited, perKey: unlimited },
    login: { perAddress: unlimited, perEmail: unlimited },
    voucher: { perAddress: unlimited },
    confirmationEmail: { perRecipient: unlimited },
  },
});
process.once('SIGTERM', () => void service.close().then(() => process.exit(0)));
console.log(JSON.stringify({ url: service.url }));
