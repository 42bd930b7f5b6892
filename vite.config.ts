/**
 * Pass 1 of the build (see scripts/build.mjs): every widget's entry as an ES module with hashed
 * names under dist/widgets/chunks/. Lit, @lit/task and widgets/shared go into one shared chunk, so a
 * page holding several widgets, or both loaders, evaluates Lit once.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, parseAst, type Plugin } from 'vite';
import { WIDGET_TYPES } from './loader/widget-types.ts';

const root = fileURLToPath(new URL('.', import.meta.url));

/** The types this build offers: those with a widget folder. The loaders answer `not-available` for the rest. */
export const builtTypes = Object.keys(WIDGET_TYPES).filter((type) => existsSync(`${root}widgets/${type}/${type}.ts`));

const minifyCss = (text: string) =>
  text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\s+/g, ' ')
    .replace(/\s*([{};,>])\s*/g, '$1')
    .replace(/:\s+/g, ':')
    .replace(/;}/g, '}')
    .trim();

/**
 * Lit leaves its templates as written. This minifies the static text of the widgets' `css` and
 * `html` tagged templates (about 500 bytes gzip of the widget budget): CSS fully (spaces before `:`
 * are kept, `.a :focus` is not `.a:focus`), HTML by folding each run of white space that holds a
 * line break into one space, which renders the same.
 */
const minifyTemplates = (): Plugin => ({
  name: 'minify-templates',
  transform(code, id) {
    if (!/[\\/]widgets[\\/].*\.ts$/.test(id) || !/\b(css|html)`/.test(code)) return;
    const edits: { start: number; end: number; text: string }[] = [];
    const walk = (node: unknown): void => {
      if (!node || typeof node !== 'object') return;
      if (Array.isArray(node)) return node.forEach(walk);
      const n = node as { type?: string; tag?: { name?: string }; quasi?: { quasis: { start: number; end: number }[] } };
      const tag = n.type === 'TaggedTemplateExpression' ? n.tag?.name : undefined;
      if (tag === 'css' && n.quasi!.quasis.length === 1) {
        const [{ start, end }] = n.quasi!.quasis as [{ start: number; end: number }];
        edits.push({ start: start + 1, end: end - 1, text: minifyCss(code.slice(start + 1, end - 1)) });
      } else if (tag === 'html') {
        for (const { start, end } of n.quasi!.quasis)
          edits.push({ start, end, text: code.slice(start, end).replace(/\s*\n\s*/g, ' ') });
      }
      for (const value of Object.values(n)) walk(value);
    };
    walk(parseAst(code, { lang: 'ts' }));
    let out = code;
    for (const { start, end, text } of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, start) + text + out.slice(end);
    return { code: out, map: null };
  },
});

export default defineConfig({
  root,
  base: './',
  publicDir: false,
  plugins: [minifyTemplates()],
  logLevel: 'warn',
  build: {
    outDir: 'dist/widgets',
    assetsDir: 'chunks',
    emptyOutDir: false,
    manifest: true,
    modulePreload: false,
    target: 'es2022',
    sourcemap: true,
    // Library mode: no module-preload helper is injected around dynamic imports (the locale chunks),
    // which app mode adds even with modulePreload off (about 700 bytes gzip).
    lib: {
      entry: Object.fromEntries(builtTypes.map((type) => [type, `${root}widgets/${type}/${type}.ts`])),
      formats: ['es'],
    },
    rolldownOptions: {
      output: {
        format: 'es',
        // Library mode keeps white space in ES output; these chunks are for browsers only.
        minify: true,
        entryFileNames: 'chunks/[name]-[hash].js',
        chunkFileNames: 'chunks/[name]-[hash].js',
        codeSplitting: {
          groups: [
            {
              name: 'shared',
              // German words (shared/*.de.ts) stay out: English pages never load them. So does the
              // participant session, a chunk of its own for the widgets that use it.
              test: /node_modules[\\/](lit|lit-html|lit-element|@lit|@lit-labs|@oxc-project\+runtime)|@oxc-project\+runtime|[\\/]widgets[\\/]shared[\\/](?!.*\.de\.ts$|session\.ts$)/,
            },
          ],
        },
      },
    },
  },
});
