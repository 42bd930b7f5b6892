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
 * What of Lit the widgets do not use, left out. Each pattern must match, or the build fails: a new
 * Lit is checked, not shipped unread. test/docs/lit.test.ts fails when a widget starts to use what
 * is left out, and says which edit to take back. `npm run test:browser:built-lit` runs the browser
 * tests on the edited Lit (their usual run takes Lit's development build, which these edits do not
 * touch), and the end-to-end tests run the built widgets.
 *
 * - Hooks for polyfills of old browsers (ShadyDOM, and its `wrap()`), for server-side rendering's
 *   hydration (and rendering before what a declarative shadow root holds), the list of loaded
 *   versions for development warnings, and Closure Compiler's `JSCompiler_renameProperty()` (both
 *   functions return what they are given).
 * - The `<style>` elements for browsers without constructable style sheets (the widgets' browsers
 *   have shadow DOM and adoptedStyleSheets: Chromium 111, Firefox 113, Safari 16.4, for
 *   color-mix() alone), and the cache of style sheets by template, for `css` results made more than
 *   once from one template (each of the widgets' is a module's constant, made once).
 * - The `css` tag's values: no widget's styles interpolate, so a tag takes its one string; so do
 *   the checks of those values, and of who constructs a CSSResult (the `css` tag alone: no widget
 *   imports CSSResult or unsafeCSS).
 * - Removing repeated styles from a class's list: no widget lists one twice.
 * - Of reactive properties, every option besides `attribute`, `state` and `hasChanged`: attribute
 *   types other than strings (their converters), custom converters, reflection to attributes,
 *   `useDefault`, `noAccessor`, and wrapping an accessor of the class's own.
 * - Decorators: their metadata (`Symbol.metadata`, the global `litPropertyMetadata`) and
 *   `addInitializer`; the widgets declare `static properties`.
 * - Of templates: `svg` and `mathml` ones, compiled ones (`@lit-labs/compiler`), directives (and
 *   what of a part only they read: its parent, type, place and connection), bindings on an element
 *   (`<div ${…}>`), in a comment, or in the text of `<script>`, `<style>`, `<textarea>` and
 *   `<title>` (their values are set by property: `.value=${…}`), and custom `creationScope`s
 *   (scoped registries).
 */
export const LIT_UNUSED: [RegExp, [RegExp, string][]][] = [
  [
    /[\\/]lit-html[\\/]lit-html\.js$/,
    [
      [/,\w+=\w+\.litHtmlPolyfillSupport;\w+\?\.\(\w+,\w+\),\(\w+\.litHtmlVersions\?\?=\[\]\)\.push\("[\d.]+"\)/, ''],
      // ShadyDOM's wrap(), which is the node itself without it.
      [/const (\w+)=(\w+)\((\w+)\)\.nextSibling;\2\(\3\)\.remove\(\)/, 'const $1=$3.nextSibling;$3.remove()'],
      // svg`…` and mathml`…` templates.
      [/(\w+)=2===(\w+)\?"<svg>":3===\2\?"<math>":""/, '$1=""'],
      [/\+\(2===(\w+)\?"<\/svg>":3===\1\?"<\/math>":""\)/, ''],
      [
        /if\(([^;{]*?this\.el\.content),2===(\w+)\|\|3===\2\)\{const (\w+)=this\.el\.content\.firstChild;\3\.replaceWith\(\.\.\.\3\.childNodes\)\}/,
        '$1;',
      ],
      // Compiled templates (a `_$litType$` that is not a number).
      [
        /"number"==typeof (\w+)\?this\._\$AC\((\w+)\):\(void 0===\1\.el&&\(\1\.el=\w+\.createElement\(\w+\(\1\.h,\1\.h\[0\]\),this\.options\)\),\1\)/,
        'this._$$AC($2)',
      ],
      // Directives: a value is what it is.
      [
        /function (\w+)\((\w+),(\w+),(\w+)=\2,(\w+)\)\{if\(\3===\w+\)return \3;let (\w+)=void 0!==\5\?\4\._\$Co\?\.\[\5\]:\4\._\$Cl;const (\w+)=\w+\(\3\)\?void 0:\3\._\$litDirective\$;return \6\?\.constructor!==\7&&\(\6\?\._\$AO\?\.\(!1\),void 0===\7\?\6=void 0:\(\6=new \7\(\2\),\6\._\$AT\(\2,\4,\5\)\),void 0!==\5\?\(\4\._\$Co\?\?=\[\]\)\[\5\]=\6:\4\._\$Cl=\6\),void 0!==\6&&\(\3=\1\(\2,\6\._\$AS\(\2,\3\.values\),\6,\5\)\),\3\}/,
        'function $1($2,$3){return $3}',
      ],
      // …and its calls.
      [/_\$AI\((\w+),\w+=this\)\{\1=\w+\(this,\1,\w+\),/, '_$$AI($1){'],
      [/if\(void 0===(\w+)\)(\w+)=\w+\(this,\2,\w+,0\),/, 'if(void 0===$1)'],
      [/(\w+)=\w+\(this,(\w+\[\w+\+\w+\]),\w+,\w+\)/, '$1=$2'],
      [/\((\w+)=\w+\(this,\1,\w+,0\)\?\?(\w+)\)===/, '($1??=$2)==='],
      // Bindings on an element (`<div ${ref(…)}>`).
      [/else (\w+)\.startsWith\((\w+)\)&&\(\w+\.push\(\{type:6,index:\w+\}\),\w+\.removeAttribute\(\1\)\)/, ''],
      [
        /1===(\w+)\.type\?(\w+)=new \1\.ctor\(([^)]*)\):6===\1\.type&&\(\2=new \w+\(\w+,this,\w+\)\)/,
        '1===$1.type&&($2=new $1.ctor($3))',
      ],
      // Bindings in comments.
      [
        /else\{let (\w+)=-1;for\(;-1!==\(\1=\w+\.data\.indexOf\((\w+),\1\+1\)\);\)\w+\.push\(\{type:7,index:\w+\}\),\1\+=\2\.length-1\}/,
        '',
      ],
      // The text of <script>, <style>, <textarea> and <title> as raw text, for bindings in it.
      [/\((\w+)\.test\((\w+)\[2\]\)&&\((\w+)=RegExp\("<\/"\+\2\[2\],"g"\)\),(\w+)=(\w+)\)/, '$4=$5'],
      [/">"===(\w+)\[0\]\?\((\w+)=\w+\?\?(\w+),/, '">"===$1[0]?($2=$3,'],
      [/:(\w+)===\w+\|\|\1===\w+\?\1=(\w+):\(\1=\w+,\w+=void 0\)/, ':$1=$2'],
      [
        /if\(\w+\.test\((\w+)\.tagName\)\)\{const (\w+)=\1\.textContent\.split\((\w+)\),(\w+)=\2\.length-1;if\(\4>0\)\{\1\.textContent=\w+\?\w+\.emptyScript:"";for\(let (\w+)=0;\5<\4;\5\+\+\)\1\.append\(\2\[\5\],\w+\(\)\),\w+\.nextNode\(\),\w+\.push\(\{type:2,index:\+\+\w+\}\);\1\.append\(\2\[\4\],\w+\(\)\)\}\}/,
        '',
      ],
      // Scoped custom element registries.
      [/\((\w+)\?\.creationScope\?\?(\w+)\)\.importNode/, '$2.importNode'],
      // What only directives see of a part (its place, its connection): async directives follow it.
      [/get _\$AU\(\)\{return this\._\$AM\._\$AU\}/g, ''],
      [/get _\$AU\(\)\{return this\._\$AM\?\._\$AU\?\?this\._\$Cv\}/, ''],
      [/,this\._\$Cv=\w+\?\.isConnected\?\?!0/, ''],
      [/setConnected\((\w+)\)\{void 0===this\._\$AM&&\(this\._\$Cv=\1,this\._\$AP\?\.\(\1\)\)\}/, ''],
      [/for\(this\._\$AP\?\.\(!1,!0,\w+\);/, 'for(;'],
      [/this\._\$AN=void 0,/g, ''],
      [/get parentNode\(\)\{return this\._\$AM\.parentNode\}/, ''],
      [
        /get parentNode\(\)\{let (\w+)=this\._\$AA\.parentNode;const (\w+)=this\._\$AM;return void 0!==\2&&11===\1\?\.nodeType&&\(\1=\2\.parentNode\),\1\}get startNode\(\)\{return this\._\$AA\}get endNode\(\)\{return this\._\$AB\}/,
        '',
      ],
      [/get tagName\(\)\{return this\.element\.tagName\}/, ''],
      // A part's parent and type, read by directives alone (and by the connection left out above).
      [/,this\._\$AM=\w+/g, ''],
      [/this\.type=[12],/g, ''],
      [/constructor\(\)\{super\(\.\.\.arguments\),this\.type=[34]\}/g, ''],
      [/constructor\((\w+),(\w+),(\w+),(\w+),(\w+)\)\{super\(\1,\2,\3,\4,\5\),this\.type=5\}/, ''],
    ],
  ],
  [
    /[\\/]reactive-element[\\/]reactive-element\.js$/,
    [
      [/\w+=\w+\.reactiveElementPolyfillSupport,/, ''],
      // Closure Compiler's JSCompiler_renameProperty(), which is the name itself for other minifiers.
      [/([(\[])\w{1,2}\("(elementProperties|finalized|properties)"\)/g, '$1"$2"'],
      [/,\w+\?\.\(\{ReactiveElement:\w+\}\),\(\w+\.reactiveElementVersions\?\?=\[\]\)\.push\("[\d.]+"\)/, ''],
      // Attribute converters for Boolean, Number, Object and Array, and the empty value of a true
      // Boolean attribute: every attribute of the widgets is a string, which Lit passes through as it is.
      [/\w+=\w+\.trustedTypes,\w+=\w+\?\w+\.emptyScript:"",/, ''],
      [
        /(\w+)=\{toAttribute\(\w+,\w+\)\{switch[^]*?\}return \w+\},fromAttribute\(\w+,\w+\)\{[^]*?\}return \w+\}\}/,
        '$1={toAttribute:t=>t,fromAttribute:t=>t}',
      ],
      // Options of a property: `attribute`, `state` and `hasChanged`, no others.
      [/(\w+)=\{attribute:!0,type:String,converter:\w+,reflect:!1,useDefault:!1,hasChanged:\w+\}/, '$1={}'],
      // Decorators: their metadata and initializers.
      [/Symbol\.metadata\?\?=Symbol\("metadata"\),\w+\.litPropertyMetadata\?\?=new WeakMap;/, ''],
      [/static addInitializer\(\w+\)\{this\._\$Ei\(\),\(this\.l\?\?=\[\]\)\.push\(\w+\)\}/, ''],
      [/,void 0!==(\w+)\.l&&\(this\.l=\[\.\.\.\1\.l\]\)/, ''],
      [/,this\.constructor\.l\?\.forEach\(\w+=>\w+\(this\)\)/, ''],
      [
        /const (\w+)=this\[Symbol\.metadata\];if\(null!==\1\)\{const (\w+)=litPropertyMetadata\.get\(\1\);if\(void 0!==\2\)for\(const\[(\w+),(\w+)\]of \2\)this\.elementProperties\.set\(\3,\4\)\}/,
        '',
      ],
      // A property's accessor: always Lit's own (no `noAccessor`, no accessor of the class's own to wrap).
      [/this\.prototype\.hasOwnProperty\((\w+)\)&&\(\((\w+)=Object\.create\(\2\)\)\.wrapped=!0\),/, ''],
      [/getOwnPropertyDescriptor:\w+,/, ''],
      [/if\(((\w+)\.state&&[^{]*?),!\2\.noAccessor\)\{([^{}]*)\}/, '$1;$3'],
      [
        /const\{get:(\w+),set:(\w+)\}=\w+\(this\.prototype,(\w+)\)\?\?\{get\(\)\{return this\[(\w+)\]\},set\((\w+)\)\{this\[\4\]=\5\}\};return\{get:\1,set\((\w+)\)\{const (\w+)=\1\?\.call\(this\);\2\?\.call\(this,\6\),this\.requestUpdate\(\3,\7,(\w+)\)\}/,
        'return{get(){return this[$4]},set(value){const old=this[$4];this[$4]=value,this.requestUpdate($3,old,$8)}',
      ],
      [
        /const (\w+)=this\.constructor\.elementProperties;if\(\1\.size>0\)for\(const\[(\w+),(\w+)\]of \1\)\{const\{wrapped:(\w+)\}=\3,(\w+)=this\[\2\];!0!==\4\|\|this\._\$AL\.has\(\2\)\|\|void 0===\5\|\|this\.C\(\2,void 0,\3,\5\)\}/,
        '',
      ],
      // A class's styles as they are listed (flattened), without removing repeated ones.
      [
        /static finalizeStyles\((\w+)\)\{const (\w+)=\[\];if\(Array\.isArray\(\1\)\)\{const (\w+)=new Set\(\1\.flat\(1\/0\)\.reverse\(\)\);for\(const (\w+) of \3\)\2\.unshift\((\w+)\(\4\)\)\}else void 0!==\1&&\2\.push\(\5\(\1\)\);return \2\}/,
        // getCompatibleStyle() is the style as it is (css-tag.js, below).
        'static finalizeStyles($1){return[$1??[]].flat(1/0)}',
      ],
      // Reflection to attributes, `useDefault`, and converters of attributes to properties.
      [
        /requestUpdate\((\w+),(\w+),(\w+),(\w+)=!1,(\w+)\)\{if\(void 0!==\1\)\{const (\w+)=this\.constructor;if\(!1===\4&&\(\5=this\[\1\]\),\3\?\?=\6\.getPropertyOptions\(\1\),!\(\(\3\.hasChanged\?\?(\w+)\)\(\5,\2\)\|\|\3\.useDefault&&\3\.reflect&&\5===this\._\$Ej\?\.get\(\1\)&&!this\.hasAttribute\(\6\._\$Eu\(\1,\3\)\)\)\)return;this\.C\(\1,\2,\3\)\}/,
        'requestUpdate($1,$2,$3){if(void 0!==$1){if($3??=this.constructor.getPropertyOptions($1),!($3.hasChanged??$7)(this[$1],$2))return;this.C($1,$2)}',
      ],
      [
        /C\((\w+),(\w+),\{useDefault:(\w+),reflect:(\w+),wrapped:(\w+)\},(\w+)\)\{\3&&!\(this\._\$Ej\?\?=new Map\)\.has\(\1\)&&\(this\._\$Ej\.set\(\1,\6\?\?\2\?\?this\[\1\]\),!0!==\5\|\|void 0!==\6\)\|\|\(this\._\$AL\.has\(\1\)\|\|\(this\.hasUpdated\|\|\3\|\|\(\2=void 0\),this\._\$AL\.set\(\1,\2\)\),!0===\4&&this\._\$Em!==\1&&\(this\._\$Eq\?\?=new Set\)\.add\(\1\)\)\}/,
        'C($1,$2){this._$$AL.has($1)||(this.hasUpdated||($2=void 0),this._$$AL.set($1,$2))}',
      ],
      [
        /_\$ET\((\w+),(\w+)\)\{const (\w+)=this\.constructor\.elementProperties\.get\(\1\),(\w+)=this\.constructor\._\$Eu\(\1,\3\);if\(void 0!==\4&&!0===\3\.reflect\)\{[^{}]*\}\}/,
        '',
      ],
      [
        /update\((\w+)\)\{this\._\$Eq&&=this\._\$Eq\.forEach\((\w+)=>this\._\$ET\(\2,this\[\2\]\)\),this\._\$EM\(\)\}/,
        'update($1){this._$$EM()}',
      ],
      [
        /_\$AK\((\w+),(\w+)\)\{const (\w+)=this\.constructor,(\w+)=\3\._\$Eh\.get\(\1\);if\(void 0!==\4&&this\._\$Em!==\4\)\{const (\w+)=\3\.getPropertyOptions\(\4\),(\w+)="function"==typeof \5\.converter\?\{fromAttribute:\5\.converter\}:void 0!==\5\.converter\?\.fromAttribute\?\5\.converter:\w+;this\._\$Em=\4;const (\w+)=\6\.fromAttribute\(\2,\5\.type\);this\[\4\]=\7\?\?this\._\$Ej\?\.get\(\4\)\?\?\7,this\._\$Em=null\}\}/,
        '_$$AK($1,$2){const $4=this.constructor._$$Eh.get($1);void 0!==$4&&(this[$4]=$2)}',
      ],
      [/,this\._\$Em=null,this\._\$Ev\(\)/, ',this._$$Ev()'],
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
      // What a server-rendered (declarative) shadow root already holds, which Lit renders before.
      [
        /createRenderRoot\(\)\{const (\w+)=super\.createRenderRoot\(\);return this\.renderOptions\.renderBefore\?\?=\1\.firstChild,\1\}/,
        '',
      ],
      // The connection of the rendered part, for async directives.
      [/this\.hasUpdated\|\|\(this\.renderOptions\.isConnected=this\.isConnected\),/, ''],
      [
        /connectedCallback\(\)\{super\.connectedCallback\(\),this\._\$Do\?\.setConnected\(!0\)\}disconnectedCallback\(\)\{super\.disconnectedCallback\(\),this\._\$Do\?\.setConnected\(!1\)\}/,
        '',
      ],
    ],
  ],
  [
    /[\\/]reactive-element[\\/]css-tag\.js$/,
    [
      // adoptStyles: adoptedStyleSheets only; getCompatibleStyle: the style as it is.
      [
        /(\w+)=(\w+)\.ShadowRoot&&\(void 0===\2\.ShadyCSS\|\|\2\.ShadyCSS\.nativeShadow\)&&"adoptedStyleSheets"in Document\.prototype&&"replace"in CSSStyleSheet\.prototype/,
        '$1=!0',
      ],
      [/(\w+)=\((\w+),(\w+)\)=>\{if\(\w+\)(\w+\.adoptedStyleSheets=\w+\.map\([^)]*\));else for[^}]*\}\}/, '$1=($2,$3)=>{$4}'],
      [/(\w+)=\w+\?\w+=>\w+:\w+=>\w+ instanceof CSSStyleSheet\?\(\w+=>\{[^}]*\}\)\(\w+\):\w+;/, '$1=t=>t;'],
      // A CSSResult's style sheet, made on first use.
      [
        /get styleSheet\(\)\{let (\w+)=this\.o;const (\w+)=this\.t;if\(\w+&&void 0===\1\)\{const (\w+)=void 0!==\2&&1===\2\.length;\3&&\(\1=\w+\.get\(\2\)\),void 0===\1&&\(\(this\.o=\1=new CSSStyleSheet\)\.replaceSync\(this\.cssText\),\3&&\w+\.set\(\2,\1\)\)\}return \1\}/,
        'get styleSheet(){let $1=this.o;return void 0===$1&&(this.o=$1=new CSSStyleSheet).replaceSync(this.cssText),$1}',
      ],
      // The css tag: one string, no values; a CSSResult unchecked.
      [
        /if\(this\._\$cssResult\$=!0,\w+!==\w+\)throw Error\("CSSResult is not constructable\. Use `unsafeCSS` or `css` instead\."\);/,
        'this._$$cssResult$$=!0;',
      ],
      [
        /(\w+)=\((\w+),\.\.\.(\w+)\)=>\{const (\w+)=1===\2\.length\?\2\[0\]:\3\.reduce\(\(\w+,\w+,\w+\)=>\w+\+\(\w+=>\{if\(!0===\w+\._\$cssResult\$\)return \w+\.cssText;if\("number"==typeof \w+\)return \w+;throw Error\("Value passed to 'css' function must be a 'css' function result: "\+\w+\+"\. Use 'unsafeCSS' to pass non-literal values, but take care to ensure page security\."\)\}\)\(\w+\)\+\2\[\w+\+1\],\2\[0\]\);return new (\w+)\(\4,\2,(\w+)\)\}/,
        '$1=$2=>new $5($2[0],$2,$6)',
      ],
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
              // participant session, the page's state, the cart and the forms, chunks of their own for the
              // widgets that use them.
              test: /node_modules[\\/](lit|lit-html|lit-element|@lit|@lit-labs|@oxc-project\+runtime)|@oxc-project\+runtime|[\\/]widgets[\\/]shared[\\/](?!.*\.de\.ts$|session\.ts$|page-state\.ts$|cart\.ts$|cart-badge\.ts$|form\.ts$|format\.ts$|first-view\.ts$)/,
            },
            {
              // The page's state (page-state.ts): the session's and the cart's base, for the checkout's
              // first render without the forms.
              name: 'page-state',
              test: /[\\/]widgets[\\/]shared[\\/]page-state\.ts$/,
            },
            {
              // The forms and the page's session, one chunk: the widgets with a form use both; the
              // video widget loads it on demand, for a participants-only video.
              name: 'session',
              test: /[\\/]widgets[\\/]shared[\\/](form|session)\.ts$/,
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
