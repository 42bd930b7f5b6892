/**
 * What a widget fetches before its first view besides what it imports statically: the chunks of its
 * dynamic imports marked where they are written,
 *
 *     const signInChunk = () => import(/* first render *\/ '../shared/sign-in.ts');
 *     const accountChunk = () => import(/* first render: signed in *\/ './profile-account.ts');
 *
 * `first render` alone: fetched together with the first request in the first view every visitor
 * gets (signed out, no emailed link, an empty cart …), so it counts in the widget's budget.
 * `first render: <view>`: fetched together with the first request in another first view, named so
 * (a returning participant's), which `npm run size` reports beside the budget. An import fetched in
 * several of these views carries one comment for each. What is fetched only after the first view
 * (on a click, when idle, for a held view that overflowed, in German) has no mark: it is on demand.
 *
 * The build (vite.config.ts) reads the marks from the code and writes, for each chunk that holds one,
 * the chunks it fetches so into `FIRST_RENDER_FILE`; scripts/size.ts counts them from there, and an
 * end-to-end test (test/e2e/layout.spec.ts) holds the count to what a browser fetches before
 * `service-widget-ready`, so that a mark left out or left over fails.
 */
import type { Plugin } from 'vite';

/** Under dist/widgets/, beside Vite's manifest. */
export const FIRST_RENDER_FILE = '.vite/first-render.json';

/** The view every visitor's first render is: the one the budget holds. */
export const FIRST_VIEW = '';

/** For each chunk file that marks any: each view it marks (`FIRST_VIEW`, or a name) and the chunk files it fetches in it. */
export type FirstRender = Record<string, Record<string, string[]>>;

/** A dynamic import of a literal path, with the comments before the path. */
const DYNAMIC_IMPORT = /\bimport\(\s*((?:\/\*[^]*?\*\/\s*)*)(['"])([^'"]+)\2\s*\)/g;
/** One mark: `first render`, or `first render: <view>`, in a block comment. */
const MARK = /\/\*\s*first render(?:\s*:\s*([^*]*?))?\s*\*\//g;

export const firstRender = (): Plugin => {
  /** By importing module: the module each mark points at, and its view. */
  const marks = new Map<string, { target: string; view: string }[]>();
  return {
    name: 'first-render',
    // Before TypeScript is compiled away, with its comments.
    enforce: 'pre',
    async transform(code, id) {
      if (!/[\\/]widgets[\\/].*\.ts$/.test(id) || !code.includes('first render')) return;
      const found: { target: string; view: string }[] = [];
      for (const [, comments, , path] of code.matchAll(DYNAMIC_IMPORT)) {
        for (const [, view = FIRST_VIEW] of comments!.matchAll(MARK)) {
          const resolved = await this.resolve(path!, id);
          if (!resolved) this.error(`${id}: the first render's import('${path}') does not resolve.`);
          found.push({ target: resolved.id, view: view.trim() });
        }
      }
      // A mark anywhere else (on an import of a computed path, misspelt) would count nothing.
      if (found.length !== [...code.matchAll(MARK)].length)
        this.error(`${id}: a 'first render' mark stands outside import('<path>'), where the build cannot read it.`);
      marks.set(id, found);
    },
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((output) => output.type === 'chunk');
      const fetched: FirstRender = {};
      for (const chunk of chunks) {
        for (const { target, view } of chunk.moduleIds.flatMap((id) => marks.get(id) ?? [])) {
          const to = chunks.find((c) => c.facadeModuleId === target) ?? chunks.find((c) => c.moduleIds.includes(target));
          if (!to) this.error(`No chunk holds ${target}, which ${chunk.fileName} fetches for its first render.`);
          const files = ((fetched[chunk.fileName] ??= {})[view] ??= []);
          if (!files.includes(to.fileName)) files.push(to.fileName);
        }
      }
      this.emitFile({ type: 'asset', fileName: FIRST_RENDER_FILE, source: `${JSON.stringify(fetched, null, 2)}\n` });
    },
  };
};
