#!/usr/bin/env node
// `npm start`: install what is missing, build the widgets, and run the reference service with its
// seeded data and the demo. The service runs in this process (no child to outlive it): Ctrl+C,
// SIGTERM to this process, and SIGTERM to the npm process that started it all stop it and free the
// port (service/main.ts).
import { spawnSync } from 'node:child_process';
import { ensureDependencies, root } from './setup.mjs';

ensureDependencies();
const tsx = `${root}node_modules/.bin/tsx`;
if (spawnSync(tsx, ['scripts/build.ts'], { cwd: root, stdio: 'inherit' }).status !== 0) process.exit(1);
const { register } = await import('tsx/esm/api');
register();
await import('../service/main.ts');
