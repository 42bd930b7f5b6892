/**
 * Pass 1 of the build (see scripts/build.mjs): every widget's entry as an ES module with hashed
 * names under dist/widgets/chunks/. Lit, @lit/task and widgets/shared go into one shared chunk, so a
 * page holding several widgets, or both loaders, evaluates Lit once.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { transform as transformCss } from 'lightningcss';
import { defineConfig, parseAst, type Plugin } from 'vite';
import { TRUSTED_TYPES_POLICY, WIDGET_TYPES } from './contract/index.ts';

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
 * Lit creates a Trusted Types policy named `lit-html`. A host page that created one of that name
 * itself (its own Lit) and forbids duplicates would make our copy fail to start, so ours is named
 * TRUSTED_TYPES_POLICY. The build fails if Lit's code no longer matches, rather than ship unrenamed.
 */
const renameTrustedTypesPolicy = (): Plugin => ({
  name: 'rename-trusted-types-policy',
  transform(code, id) {
    if (!/[\\/]lit-html[\\/]lit-html\.js$/.test(id)) return;
    const renamed = code.replace(/createPolicy\((['"`])lit-html\1/, `createPolicy('${TRUSTED_TYPES_POLICY}'`);
    if (renamed === code)
      this.error(`lit-html's createPolicy('lit-html', …) was not found in ${id}: rename the Trusted Types policy anew.`);
    return { code: renamed, map: null };
  },
});

/**
 * What of Lit the widgets do not use, left out (about 270 bytes gzip): the hooks for polyfills of old
 * browsers (ShadyDOM), for server-side rendering's hydration, the list of loaded versions for
 * development warnings, attribute converters for other types than strings, and the `<style>`
 * elements for browsers without constructable style sheets
 * (the widgets' browsers have shadow DOM and adoptedStyleSheets: Chromium 111, Firefox 113,
 * Safari 16.4, for color-mix() alone). Each pattern must match, or the build fails: a new Lit is
 * checked, not shipped unread.
 */
export const LIT_UNUSED: [RegExp, [RegExp, string][]][] = [
  [
    /[\\/]lit-html[\\/]lit-html\.js$/,
    [[/,\w+=\w+\.litHtmlPolyfillSupport;\w+\?\.\(\w+,\w+\),\(\w+\.litHtmlVersions\?\?=\[\]\)\.push\("[\d.]+"\)/, '']],
  ],
  [
    /[\\/]reactive-element[\\/]reactive-element\.js$/,
    [
      [/\w+=\w+\.reactiveElementPolyfillSupport,/, ''],
      // Attribute converters for Boolean, Number, Object and Array: every attribute of the widgets is
      // a string (test/docs/lit.test.ts keeps it so), which Lit passes through as it is.
      [
        /(\w+)=\{toAttribute\(\w+,\w+\)\{switch[^]*?\}return \w+\},fromAttribute\(\w+,\w+\)\{[^]*?\}return \w+\}\}/,
        '$1={toAttribute:t=>t,fromAttribute:t=>t}',
      ],
      [/,\w+\?\.\(\{ReactiveElement:\w+\}\),\(\w+\.reactiveElementVersions\?\?=\[\]\)\.push\("[\d.]+"\)/, ''],
    ],
  ],
  [
    /[\\/]lit-element[\\/]lit-element\.js$/,
    [
      [
        /,\w+\.litElementHydrateSupport\?\.\(\{LitElement:\w+\}\);const \w+=\w+\.litElementPolyfillSupport;\w+\?\.\(\{LitElement:\w+\}\)/,
        '',
      ],
      [/\(\w+\.litElementVersions\?\?=\[\]\)\.push\("[\d.]+"\);/, ''],
    ],
  ],
  [
    /[\\/]reactive-element[\\/]css-tag\.js$/,
    [
      // adoptStyles: adoptedStyleSheets only; getCompatibleStyle: the style as it is.
      [/(\w+)=\((\w+),(\w+)\)=>\{if\(\w+\)(\w+\.adoptedStyleSheets=\w+\.map\([^)]*\));else for[^}]*\}\}/, '$1=($2,$3)=>{$4}'],
      [/(\w+)=\w+\?\w+=>\w+:\w+=>\w+ instanceof CSSStyleSheet\?\(\w+=>\{[^}]*\}\)\(\w+\):\w+;/, '$1=t=>t;'],
    ],
  ],
];
const leaveOutLitsUnused = (): Plugin => ({
  name: 'leave-out-lits-unused',
  transform(code, id) {
    const edits = LIT_UNUSED.find(([file]) => file.test(id))?.[1];
    if (!edits) return;
    for (const [pattern, replacement] of edits) {
      if (!pattern.test(code)) this.error(`${pattern} is not in ${id}: check what this Lit does there now.`);
      code = code.replace(pattern, replacement);
    }
    return { code, map: null };
  },
});

export default defineConfig({
  root,
  base: './',
  publicDir: false,
  plugins: [minifyTemplates(), renameTrustedTypesPolicy(), leaveOutLitsUnused()],
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
    sourcemap: true,
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
        // Library mode keeps white space in ES output; these chunks are for browsers only.
        minify: true,
        entryFileNames: 'chunks/[name]-[hash:6].js',
        chunkFileNames: 'chunks/[name]-[hash:6].js',
        codeSplitting: {
          groups: [
            {
              name: 'shared',
              // German words (shared/*.de.ts) stay out: English pages never load them. So do the
              // participant session and the forms, chunks of their own for the widgets that use them.
              test: /node_modules[\\/](lit|lit-html|lit-element|@lit|@lit-labs|@oxc-project\+runtime)|@oxc-project\+runtime|[\\/]widgets[\\/]shared[\\/](?!.*\.de\.ts$|session\.ts$|form\.ts$|format\.ts$|first-view\.ts$)/,
            },
            {
              // Dates, money and the first view of a list: what the registration list and the
              // profile's signed-in view use, and the other widgets do not.
              name: 'lists',
              test: /[\\/]widgets[\\/]shared[\\/](format|first-view)\.ts$/,
            },
          ],
        },
      },
    },
  },
});
