#!/usr/bin/env node
// `npm start`: install what is missing, build the widgets, and run the reference service with its
// seeded data and the demo.
import { spawn, spawnSync } from 'node:child_process';
import { ensureDependencies, root } from './setup.mjs';

ensureDependencies();
const tsx = `${root}node_modules/.bin/tsx`;
if (spawnSync(tsx, ['scripts/build.ts'], { cwd: root, stdio: 'inherit' }).status !== 0) process.exit(1);
const service = spawn(tsx, ['service/main.ts'], { cwd: root, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => service.kill(signal));
service.on('exit', (code) => process.exit(code ?? 0));
