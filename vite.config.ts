/**
 * Pass 1 of the build (see scripts/build.mjs): every widget's entry as an ES module with hashed
 * names under dist/widgets/chunks/. Lit, @lit/task and widgets/shared go into one shared chunk, so a
 * page holding several widgets, or both loaders, evaluates Lit once.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { transform as transformCss } from 'lightningcss';
import { defineConfig, parseAst, type Plugin } from 'vite';
import { WIDGET_TYPES } from './contract/index.ts';
import { firstRender } from './scripts/first-render.ts';
import { LIT_FILES, litFileOf, patchLit, type LitFile } from './scripts/lit-patches.ts';

const root = fileURLToPath(new URL('.', import.meta.url));

/** The types this build offers: those with a widget folder. The loaders answer `not-available` for the rest. */
export const builtTypes = Object.keys(WIDGET_TYPES).filter((type) => existsSync(`${root}widgets/${type}/${type}.ts`));

/** A real CSS minifier (lightningcss, which Vite brings), for the browsers the widgets support. */
const minifyCss = (text: string) =>
  transformCss({
    filename: 'widget.css',
    code: Buffer.from(text),
    minify: true,
    targets: { chrome: 111 << 16, firefox: 113 << 16, safari: (16 << 16) | (4 << 8) },
  }).code.toString();

/**
 * Lit leaves its templates as written. This minifies the static text of the widgets' `css` and
 * `html` tagged templates (about 500 bytes gzip of the widget budget): CSS fully, HTML by dropping
 * each run of white space that holds a line break between two tags (where the widgets' layouts are
 * blocks, grids and flex boxes, which ignore it) and folding the other such runs into one space,
 * which renders the same.
 */
export const minifyTemplates = (): Plugin => ({
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
          edits.push({
            start,
            end,
            text: code
              .slice(start, end)
              .replace(/>\s*\n\s*</g, '><')
              .replace(/\s*\n\s*/g, ' '),
          });
      }
      for (const value of Object.values(n)) walk(value);
    };
    walk(parseAst(code, { lang: 'ts' }));
    let out = code;
    for (const { start, end, text } of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, start) + text + out.slice(end);
    return { code: out, map: null };
  },
});

/**
 * Lit's minified code, patched (scripts/lit-patches.ts): the Trusted Types policy renamed, and what
 * of Lit the widgets never use left out. A patch that no longer fits fails the build by its name,
 * and so does a patched file of Lit that the build never loaded (Lit moved it: nothing was left out).
 */
const patchLitPlugin = (): Plugin => {
  const patched = new Set<LitFile>();
  return {
    name: 'lit-patches',
    transform(code, id) {
      let out: string | undefined;
      try {
        out = patchLit(id, code);
      } catch (error) {
        this.error((error as Error).message);
      }
      if (out === undefined) return;
      patched.add(litFileOf(id)!);
      return { code: out, map: null };
    },
    buildEnd(error) {
      const missed = LIT_FILES.filter((file) => !patched.has(file));
      if (!error && missed.length)
        this.error(`Lit's ${missed.join(', ')} never reached the build, so its patches (scripts/lit-patches.ts) were not made.`);
    },
  };
};

export default defineConfig({
  root,
  base: './',
  publicDir: false,
  plugins: [minifyTemplates(), patchLitPlugin(), firstRender()],
  // Development-only warnings (widgets/shared/base.ts) go from the production build.
  define: { __DEV__: 'false' },
  logLevel: 'warn',
  build: {
    outDir: 'dist/widgets',
    assetsDir: 'chunks',
    emptyOutDir: false,
    manifest: true,
    modulePreload: false,
    target: 'es2022',
    // The maps are written, and the service names each in a SourceMap header rather than a comment
    // at the end of the chunk (about 34 B gzip a file, on every widget's first render).
    sourcemap: 'hidden',
    // Library mode: no module-preload helper is injected around dynamic imports (the locale chunks),
    // which app mode adds even with modulePreload off (about 700 bytes gzip).
    lib: {
      entry: {
        ...Object.fromEntries(builtTypes.map((type) => [type, `${root}widgets/${type}/${type}.ts`])),
        // What the loaders say when a placeholder fails: loaded only then.
        messages: `${root}loader/messages.ts`,
      },
      formats: ['es'],
    },
    rolldownOptions: {
      output: {
        format: 'es',
        // Library mode keeps white space in ES output; these chunks are for browsers only, which read
        // no comments: the minifier's own annotations (/* @__PURE__ */) go too.
        minify: true,
        comments: false,
        entryFileNames: 'chunks/[name]-[hash:6].js',
        chunkFileNames: 'chunks/[name]-[hash:6].js',
        codeSplitting: {
          groups: [
            {
              name: 'shared',
              // German words (shared/*.de.ts) stay out: English pages never load them. So do the
              // participant session, the page's state, the cart, the forms and their confirmations' look,
              // the sign-in, chunks of their own for the widgets that use them, and the fitting of a held
              // view. Dates, money and the first view of a list are in (five widgets use them at first, the
              // profile once signed in): a chunk of their own cost those five 60 to 90 B gzip each in
              // imports, exports and the file's own compression, and a request.
              test: /node_modules[\\/](lit|lit-html|lit-element|@lit|@lit-labs|@oxc-project\+runtime)|@oxc-project\+runtime|[\\/]widgets[\\/]shared[\\/](?!.*\.de\.ts$|session\.ts$|page-state\.ts$|cart\.ts$|cart-badge\.ts$|form\.ts$|done\.ts$|fit\.ts$|sign-in(-pin)?\.ts$|checkout-find\.ts$)/,
            },
            {
              // The page's state (page-state.ts: the session's and the cart's base) and the participant's
              // session, one chunk: the contact form and the profile take both at first, and the checkout
              // (the cart's base) pays the session's few lines (+122 B gzip) so that those two save a
              // chunk's imports and exports (35 B each). The video widget loads it on demand.
              name: 'state',
              test: /[\\/]widgets[\\/]shared[\\/](page-state|session)\.ts$/,
            },
            {
              // Whether a checkout is on the page, for the widgets that book (the registration's and the
              // map's first render; the cart and its badge), and the pages of the site they link to
              // (contract/links.ts: the map's booking page, the calendar's checkout page), which the same
              // widgets take: a chunk of its own cost the map a request and the v2 loader 16 B. Its name
              // is short: the loaders list it.
              name: 'find',
              test: /[\\/]widgets[\\/]shared[\\/]checkout-find\.ts$|[\\/]contract[\\/]links\.ts$/,
            },
            {
              // The forms: for the contact form's and the profile's first render, and on demand for the
              // other forms and a participants-only video's sign-in.
              name: 'forms',
              test: /[\\/]widgets[\\/]shared[\\/]form\.ts$/,
            },
            {
              // The confirmations' look, on demand with the contact's, the registration's and the
              // checkout's confirmation: no first render pays for it.
              name: 'done',
              test: /[\\/]widgets[\\/]shared[\\/]done\.ts$/,
            },
          ],
        },
      },
    },
  },
});
