/**
 * `npm run serve`: the reference service without building, on PORT (default 8787) until Ctrl+C or
 * SIGTERM; its settings from the environment (run.ts).
 */
import { runService } from './run.ts';

await runService();
