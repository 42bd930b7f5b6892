/**
 * The npm package, for pages that bundle their own code (docs/embedding.md, "With a bundler"): into
 * dist/npm/, which `npm pack dist/npm` packs. The widgets' TypeScript as ES modules, one file per
 * module as written (a page's bundler splits, tree-shakes and minifies them, and shares one Lit with
 * the page's own), with `lit` and `leaflet` as dependencies; German words stay chunks of their own
 * (dynamic imports), loaded only on a German page. Beside each module its declarations, and the
 * custom-elements manifest of the build.
 *
 * The package's entries: `.` the loader's functions (loader/module.ts) and `./<type>` each element.
 * Only the element modules have an effect on import (they define their element), and only they are
 * listed in `sideEffects`.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { build } from 'vite';
import { minifyTemplates } from '../vite.config.ts';
import { WIDGET_TYPES } from '../contract/index.ts';

export const PACKAGE_NAME = '@service-widgets/widgets';

/** Builds the package into `out` (a folder path ending in `/`), which it empties first. */
export const buildPackage = async (root: string, out = `${root}dist/npm/`) => {
  const types = Object.keys(WIDGET_TYPES);
  const elementFile = (type: string) => `widgets/${type}/${type}`;
  const own = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));
  const lock = JSON.parse(readFileSync(`${root}package-lock.json`, 'utf8'));
  const installed = (name: string) => lock.packages[`node_modules/${name}`].version as string;

  await build({
    configFile: false,
    root,
    publicDir: false,
    logLevel: 'warn',
    plugins: [minifyTemplates()],
    // The development warnings read a constant the page's bundler does not know (base.ts).
    define: { __DEV__: 'false' },
    build: {
      outDir: out,
      emptyOutDir: true,
      target: 'es2022',
      // The page's bundler minifies: readable modules are easier to debug in a page's build.
      minify: false,
      lib: {
        entry: [`${root}loader/module.ts`, ...types.map((t) => `${root}${elementFile(t)}.ts`)],
        formats: ['es'],
      },
      rolldownOptions: {
        external: [/^lit($|\/)/, /^@lit\//, /^leaflet\/dist\/leaflet-src/],
        output: {
          preserveModules: true,
          preserveModulesRoot: root,
          // Leaflet's CSS as a string (map-leaflet.ts): a package's own folder named node_modules would not be packed.
          entryFileNames: ({ name }) => `${name.includes('leaflet.css') ? 'vendor/leaflet-css' : name}.js`,
        },
      },
    },
  });

  // The declarations, as the browser project's compiler sees the code.
  const config = ts.getParsedCommandLineOfConfigFile(
    `${root}tsconfig.browser.json`,
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
  )!;
  const program = ts.createProgram([`${root}loader/module.ts`, ...types.map((t) => `${root}${elementFile(t)}.ts`)], {
    ...config.options,
    noEmit: false,
    declaration: true,
    emitDeclarationOnly: true,
    rewriteRelativeImportExtensions: true,
    rootDir: root,
    outDir: out,
  });
  const apiTypes = `${root}contract/api/index.ts`;
  /** The API's types that the package's declarations name. */
  const named = new Set<string>();
  const emitted = program.emit(undefined, (file, text) => {
    if (file.startsWith(`${out}contract/api/`)) return;
    const api = `['"][./]*(?:contract/)?api/index\\.[jt]s['"]`;
    for (const [, list, one] of text.matchAll(
      new RegExp(`import (?:type )?\\{([^}]*)\\} from ${api}|import\\(${api}\\)\\.(\\w+)`, 'g'),
    ))
      for (const name of (list ?? one!).split(','))
        named.add(
          name
            .replace(/\btype\b/, '')
            .trim()
            .split(/\s/)[0]!,
        );
    named.delete('');
    // Relative imports name the `.js` the page's bundler finds beside each declaration.
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(
      file,
      text
        .replace(/((?:from|import\()\s*'\.{1,2}\/[^']*)\.ts'/g, "$1.js'")
        // Lit's own packages, as the package's one dependency re-exports them: a strict installer
        // (pnpm) lets a package import only what it depends on.
        .replace(/import\("(lit-html|lit-element|@lit\/reactive-element)[^"]*"\)/g, 'import("lit")'),
    );
  });
  if (emitted.diagnostics.length) throw new Error(ts.formatDiagnostics(emitted.diagnostics, ts.createCompilerHost({})));

  // The API's types come from its zod schemas (contract/api): spelled out here, so that a page
  // type-checks the package without zod.
  const checker = program.getTypeChecker();
  const apiModule = checker.getSymbolAtLocation(program.getSourceFile(apiTypes)!)!;
  const spelled = checker
    .getExportsOfModule(apiModule)
    .filter((symbol) => named.has(symbol.name))
    .map((symbol) => {
      const type = checker.getDeclaredTypeOfSymbol(checker.getAliasedSymbol(symbol));
      const text = checker.typeToString(type, undefined, ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.InTypeAlias);
      return `export type ${symbol.name} = ${text};\n`;
    });
  mkdirSync(`${out}contract/api`, { recursive: true });
  writeFileSync(
    `${out}contract/api/index.d.ts`,
    `/** The widget API's requests and answers (the service's /openapi.json documents them). */\n${spelled.join('')}`,
  );

  // The element manifest (custom-elements-manifest.config.mjs), its modules named as the package has them.
  const analyzed = spawnSync(
    process.execPath,
    [`${root}node_modules/@custom-elements-manifest/analyzer/cem.js`, 'analyze', '--quiet', '--outdir', relative(root, out)],
    { cwd: root, stdio: 'inherit' },
  );
  if (analyzed.status !== 0) throw new Error('cem analyze failed');
  const manifest = readFileSync(`${out}custom-elements.json`, 'utf8').replace(/("(?:path|module)": "[^"]*)\.ts"/g, '$1.js"');
  writeFileSync(`${out}custom-elements.json`, manifest);

  const exportOf = (file: string) => ({ types: `./${file}.d.ts`, default: `./${file}.js` });
  const pkg = {
    name: PACKAGE_NAME,
    version: own.version,
    description: 'The course-booking service’s widgets as web components (Lit), for pages that bundle their own code.',
    type: 'module',
    exports: {
      '.': exportOf('loader/module'),
      ...Object.fromEntries(types.map((t) => [`./${t}`, exportOf(elementFile(t))])),
      './custom-elements.json': './custom-elements.json',
      './package.json': './package.json',
    },
    types: './loader/module.d.ts',
    sideEffects: types.map((t) => `./${elementFile(t)}.js`),
    customElements: 'custom-elements.json',
    dependencies: { lit: `^${installed('lit')}`, leaflet: `^${installed('leaflet')}` },
  };
  writeFileSync(`${out}package.json`, `${JSON.stringify(pkg, null, 2)}\n`);
  copyFileSync(`${root}docs/npm-package.md`, `${out}README.md`);
};

// `npm run package`: into dist/npm/, for `npm pack dist/npm`.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  await buildPackage(root);
  console.log(`built dist/npm/ (${PACKAGE_NAME}): npm pack dist/npm packs it`);
}
