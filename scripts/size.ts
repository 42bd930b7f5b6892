// Size budgets, checked in `npm test` on the built files: the gzip bytes of each loader, and of
// what a page with one widget downloads (its loader, the shared chunk and the widget's chunk).
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { WIDGET_TYPES, type WidgetType } from '../loader/widget-types.ts';

const dist = fileURLToPath(new URL('../dist/widgets/', import.meta.url));
const LOADER_BUDGET = 2000;
const WIDGET_PAGE_BUDGET = 14000;

const gz = (path: string) => gzipSync(readFileSync(path), { level: 9 }).length;
const manifest: Record<string, { file: string; name?: string; isEntry?: boolean; imports?: string[] }> = JSON.parse(readFileSync(`${dist}.vite/manifest.json`, 'utf8'));
const rows: { name: string; bytes: number; budget: number; ok: boolean }[] = [];
const check = (name: string, bytes: number, budget: number) => rows.push({ name, bytes, budget, ok: bytes <= budget });

const loaders: Record<number, number> = { 1: gz(`${dist}v1/loader.js`), 2: gz(`${dist}v2/loader.js`) };
check('v1/loader.js', loaders[1], LOADER_BUDGET);
check('v2/loader.js', loaders[2], LOADER_BUDGET);

for (const entry of Object.values(manifest).filter((m) => m.isEntry)) {
  const files = [entry.file, ...(entry.imports ?? []).map((id) => manifest[id]!.file)];
  const parts = files.map((file) => `${file.replace('chunks/', '')} ${gz(dist + file)}`);
  const total = loaders[WIDGET_TYPES[entry.name as WidgetType]]! + files.reduce((sum, file) => sum + gz(dist + file), 0);
  check(`${entry.name}: loader + ${parts.join(' + ')}`, total, WIDGET_PAGE_BUDGET);
}

for (const { name, bytes, budget, ok } of rows) console.log(`${ok ? 'ok  ' : 'OVER'} ${String(bytes).padStart(6)} / ${budget} B gzip  ${name}`);
const over = rows.filter((r) => !r.ok).length;
console.log(`${rows.length - over} passed, ${over} failed`);
process.exit(over ? 1 : 0);
