/**
 * The build's edits of Lit's minified production code: the Trusted Types policy renamed, and what
 * of Lit the widgets provably never use left out (about 2 KB gzip of the shared chunk, without which
 * four widgets pass the 14,000 B budget).
 *
 * Each patch is written as the piece of Lit's code it finds, with the minified names as named slots
 * (`${'part'}`: any identifier, the same one wherever the slot appears again; `${ANY}`: any
 * identifier), and what it leaves in its place. Each says how often it occurs in its file (once,
 * unless `times` says otherwise), and the build fails, naming the patch and the file, when it occurs
 * any other number of times: a new Lit is read again, never shipped half-edited.
 *
 * Three checks keep them safe: `test/docs/lit.test.ts` fails when a widget starts to use what a
 * patch leaves out (and says which); `test/docs/lit-patches.test.ts` runs every patch against the
 * installed Lit; `npm run test:browser:built-lit` runs the browser tests on the patched Lit (their
 * usual run takes Lit's development build, which these patches do not touch), and the end-to-end
 * tests run the built widgets.
 */
import { TRUSTED_TYPES_POLICY } from '../contract/index.ts';

/** Any one identifier of the minified code, not named. */
const ANY = /\w+/;
/** A version string such as "3.3.3". */
const VERSION = /[\d.]+/;
/** The shortest run of any code up to what follows. */
const ANY_CODE = /[^]*?/;

/** A slot: a named identifier, any code (a RegExp), or a named slot for other code (`{ name: /…/ }`). */
type Slot = string | RegExp | Record<string, RegExp>;
interface Snippet {
  strings: readonly string[];
  slots: readonly Slot[];
}

/**
 * A piece of Lit's minified code. Line breaks and the indentation after them are left out, so a long
 * piece can be written over several lines (minified code has none).
 */
const js = (strings: TemplateStringsArray, ...slots: Slot[]): Snippet => ({
  strings: strings.map((text) => text.replace(/\n[ \t]*/g, '')),
  slots,
});

export const LIT_FILES = [
  'lit-html/lit-html.js',
  '@lit/reactive-element/reactive-element.js',
  'lit-element/lit-element.js',
  '@lit/reactive-element/css-tag.js',
] as const;
export type LitFile = (typeof LIT_FILES)[number];

interface PatchSource {
  name: string;
  find: Snippet;
  /** What takes its place: Lit's code with the slots of `find`, or plain text. */
  to: Snippet | string;
  /** How many times it occurs in the file. */
  times?: number;
}

export interface LitPatch {
  name: string;
  file: LitFile;
  /** Global: every occurrence is replaced, after checking that there are `times` of them. */
  find: RegExp;
  replacement: string;
  times: number;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const escapeReplacement = (text: string) => text.replaceAll('$', () => '$$');

const compile = (file: LitFile, { name, find, to, times = 1 }: PatchSource): LitPatch => {
  const named = new Set<string>();
  const slot = (slotName: string, body: string) => {
    if (named.has(slotName)) throw new Error(`Lit patch "${name}": the slot ${slotName} is named twice`);
    named.add(slotName);
    return `(?<${slotName}>${body})`;
  };
  let source = escapeRegExp(find.strings[0]!);
  find.slots.forEach((hole, i) => {
    if (typeof hole === 'string') source += named.has(hole) ? `\\k<${hole}>` : slot(hole, '\\w+');
    else if (hole instanceof RegExp) source += `(?:${hole.source})`;
    else
      source += Object.entries(hole)
        .map(([key, body]) => slot(key, body.source))
        .join('');
    source += escapeRegExp(find.strings[i + 1]!);
  });
  let replacement = typeof to === 'string' ? escapeReplacement(to) : escapeReplacement(to.strings[0]!);
  if (typeof to !== 'string')
    to.slots.forEach((hole, i) => {
      if (typeof hole !== 'string' || !named.has(hole))
        throw new Error(`Lit patch "${name}": what replaces it may use only the named slots of what it finds`);
      replacement += `$<${hole}>${escapeReplacement(to.strings[i + 1]!)}`;
    });
  return { name, file, find: new RegExp(source, 'g'), replacement, times };
};

const inFile = (file: LitFile, patches: PatchSource[]) => patches.map((patch) => compile(file, patch));

export const LIT_PATCHES: readonly LitPatch[] = [
  ...inFile('lit-html/lit-html.js', [
    {
      // A host page with its own Lit has created `lit-html` already; a policy of the same name
      // would fail under a CSP that forbids duplicates.
      name: 'the Trusted Types policy, renamed',
      find: js`createPolicy(${{ quote: /['"`]/ }}lit-html${'quote'}`,
      to: `createPolicy('${TRUSTED_TYPES_POLICY}'`,
    },

    // Hooks for polyfills of old browsers (the widgets' browsers have shadow DOM: Chromium 111,
    // Firefox 113, Safari 16.4), and the list of loaded versions, which only development warnings read.
    {
      name: 'the polyfill hook and the version registry',
      find: js`,${'support'}=${'global'}.litHtmlPolyfillSupport;${'support'}?.(${ANY},${ANY}),
        (${'global'}.litHtmlVersions??=[]).push("${VERSION}")`,
      to: '',
    },
    {
      name: "ShadyDOM's wrap() around a node to remove (it returns the node without ShadyDOM)",
      find: js`const ${'next'}=${'wrap'}(${'node'}).nextSibling;${'wrap'}(${'node'}).remove()`,
      to: js`const ${'next'}=${'node'}.nextSibling;${'node'}.remove()`,
    },

    // svg`…` and mathml`…` templates: the widgets import neither (lit.test.ts: only what the build
    // leaves whole, from 'lit').
    {
      name: 'svg and mathml templates: the opening wrapper',
      find: js`${'open'}=2===${'type'}?"<svg>":3===${'type'}?"<math>":""`,
      to: js`${'open'}=""`,
    },
    {
      name: 'svg and mathml templates: the closing wrapper',
      find: js`+(2===${'type'}?"</svg>":3===${'type'}?"</math>":"")`,
      to: '',
    },
    {
      name: 'svg and mathml templates: unwrapping their content',
      find: js`if(${{ create: /[^;{]*?/ }}this.el.content,2===${'type'}||3===${'type'}){
        const ${'wrapper'}=this.el.content.firstChild;${'wrapper'}.replaceWith(...${'wrapper'}.childNodes)}`,
      to: js`${'create'}this.el.content;`,
    },

    // Compiled templates (@lit-labs/compiler): a template result whose `_$litType$` is an object
    // rather than a number; no widget writes one (lit.test.ts: no `_$litType$`).
    {
      name: 'compiled templates',
      find: js`"number"==typeof ${'type'}?this._$AC(${'result'}):
        (void 0===${'type'}.el&&(${'type'}.el=${ANY}.createElement(${ANY}(${'type'}.h,${'type'}.h[0]),this.options)),${'type'})`,
      to: js`this._$AC(${'result'})`,
    },

    // Directives: the widgets import none (lit.test.ts: only LitElement, html, css, nothing,
    // noChange and render from 'lit'), so a bound value is what it is.
    {
      name: 'directives: resolveDirective() returns the value as it is',
      find: js`function ${'resolve'}(${'part'},${'value'},${'parent'}=${'part'},${'index'}){
        if(${'value'}===${ANY})return ${'value'};
        let ${'current'}=void 0!==${'index'}?${'parent'}._$Co?.[${'index'}]:${'parent'}._$Cl;
        const ${'Next'}=${ANY}(${'value'})?void 0:${'value'}._$litDirective$;
        return ${'current'}?.constructor!==${'Next'}&&(${'current'}?._$AO?.(!1),
          void 0===${'Next'}?${'current'}=void 0:(${'current'}=new ${'Next'}(${'part'}),${'current'}._$AT(${'part'},${'parent'},${'index'})),
          void 0!==${'index'}?(${'parent'}._$Co??=[])[${'index'}]=${'current'}:${'parent'}._$Cl=${'current'}),
        void 0!==${'current'}&&(${'value'}=${'resolve'}(${'part'},${'current'}._$AS(${'part'},${'value'}.values),${'current'},${'index'})),
        ${'value'}}`,
      to: js`function ${'resolve'}(${'part'},${'value'}){return ${'value'}}`,
    },
    {
      name: 'directives: resolved for a child part',
      find: js`_$AI(${'value'},${'parent'}=this){${'value'}=${ANY}(this,${'value'},${'parent'}),`,
      to: js`_$AI(${'value'}){`,
    },
    {
      name: 'directives: resolved for an attribute of one binding',
      find: js`if(void 0===${'strings'})${'value'}=${ANY}(this,${'value'},${ANY},0),`,
      to: js`if(void 0===${'strings'})`,
    },
    {
      name: 'directives: resolved for each binding of an interpolated attribute',
      find: js`${'v'}=${ANY}(this,${'values'}[${'start'}+${'i'}],${ANY},${'i'})`,
      to: js`${'v'}=${'values'}[${'start'}+${'i'}]`,
    },
    {
      name: 'directives: resolved for an event listener',
      find: js`(${'value'}=${ANY}(this,${'value'},${ANY},0)??${'nothing'})===`,
      to: js`(${'value'}??=${'nothing'})===`,
    },

    // Bindings the widgets' templates never hold (lit.test.ts: "bind only children and
    // attributes"): on an element (`<div ${…}>`), in a comment, in the text of <script>, <style>,
    // <textarea> and <title> (those values are set by property: `.value=${…}`).
    {
      name: 'bindings on an element: finding them',
      find: js`else ${'name'}.startsWith(${'marker'})&&(${ANY}.push({type:6,index:${ANY}}),${ANY}.removeAttribute(${'name'}))`,
      to: '',
    },
    {
      name: 'bindings on an element: their part',
      find: js`1===${'part'}.type?${'instance'}=new ${'part'}.ctor(${{ args: /[^)]*/ }}):
        6===${'part'}.type&&(${'instance'}=new ${ANY}(${ANY},this,${ANY}))`,
      to: js`1===${'part'}.type&&(${'instance'}=new ${'part'}.ctor(${'args'}))`,
    },
    {
      name: 'bindings in comments',
      find: js`else{let ${'i'}=-1;for(;-1!==(${'i'}=${ANY}.data.indexOf(${'marker'},${'i'}+1));)
        ${ANY}.push({type:7,index:${ANY}}),${'i'}+=${'marker'}.length-1}`,
      to: '',
    },
    {
      name: 'raw-text elements: the end tag looked for',
      find: js`(${ANY}.test(${'match'}[2])&&(${ANY}=RegExp("</"+${'match'}[2],"g")),${'regex'}=${'tagEnd'})`,
      to: js`${'regex'}=${'tagEnd'}`,
    },
    {
      name: 'raw-text elements: text after the tag',
      find: js`">"===${'match'}[0]?(${'regex'}=${ANY}??${'text'},`,
      to: js`">"===${'match'}[0]?(${'regex'}=${'text'},`,
    },
    {
      name: 'raw-text elements: the end of an attribute',
      find: js`:${'regex'}===${ANY}||${'regex'}===${ANY}?${'regex'}=${'text'}:(${'regex'}=${ANY},${ANY}=void 0)`,
      to: js`:${'regex'}=${'text'}`,
    },
    {
      name: 'raw-text elements: bindings in their text',
      find: js`if(${ANY}.test(${'node'}.tagName)){
        const ${'strings'}=${'node'}.textContent.split(${'marker'}),${'last'}=${'strings'}.length-1;
        if(${'last'}>0){${'node'}.textContent=${ANY}?${ANY}.emptyScript:"";
          for(let ${'i'}=0;${'i'}<${'last'};${'i'}++)${'node'}.append(${'strings'}[${'i'}],${ANY}()),${ANY}.nextNode(),
            ${ANY}.push({type:2,index:++${ANY}});
          ${'node'}.append(${'strings'}[${'last'}],${ANY}())}}`,
      to: '',
    },
    {
      // Scoped custom element registries: no widget passes a `creationScope` (lit.test.ts).
      name: 'scoped registries: the creationScope',
      find: js`(${ANY}?.creationScope??${'document'}).importNode`,
      to: js`${'document'}.importNode`,
    },

    // What only directives read of a part: whether it is connected (async directives follow it),
    // its place (parentNode, startNode, endNode, tagName), its parent and its type.
    {
      name: "parts' connection: _$AU of the attribute and element parts and of a template instance",
      find: js`get _$AU(){return this._$AM._$AU}`,
      to: '',
      times: 3,
    },
    { name: "parts' connection: _$AU of the child part", find: js`get _$AU(){return this._$AM?._$AU??this._$Cv}`, to: '' },
    { name: "parts' connection: the child part's _$Cv", find: js`,this._$Cv=${ANY}?.isConnected??!0`, to: '' },
    {
      name: "parts' connection: setConnected()",
      find: js`setConnected(${'connected'}){void 0===this._$AM&&(this._$Cv=${'connected'},this._$AP?.(${'connected'}))}`,
      to: '',
    },
    {
      name: "parts' connection: telling async directives of removed children",
      find: js`for(this._$AP?.(!1,!0,${ANY});`,
      to: js`for(;`,
    },
    { name: "parts' connection: the disconnectable children (_$AN)", find: js`this._$AN=void 0,`, to: '', times: 4 },
    {
      name: "parts' place: the parentNode of a template instance",
      find: js`get parentNode(){return this._$AM.parentNode}`,
      to: '',
    },
    {
      name: "parts' place: the child part's parentNode, startNode and endNode",
      find: js`get parentNode(){let ${'node'}=this._$AA.parentNode;const ${'parent'}=this._$AM;
        return void 0!==${'parent'}&&11===${'node'}?.nodeType&&(${'node'}=${'parent'}.parentNode),${'node'}}
        get startNode(){return this._$AA}get endNode(){return this._$AB}`,
      to: '',
    },
    { name: "parts' place: the attribute part's tagName", find: js`get tagName(){return this.element.tagName}`, to: '' },
    { name: "parts' parent (_$AM)", find: js`,this._$AM=${ANY}`, to: '', times: 4 },
    { name: "parts' type: child and attribute parts", find: js`this.type=${/[12]/},`, to: '', times: 2 },
    {
      name: "parts' type: property and boolean-attribute parts",
      find: js`constructor(){super(...arguments),this.type=${/[34]/}}`,
      to: '',
      times: 2,
    },
    {
      name: "parts' type: the event part",
      find: js`constructor(${'a'},${'b'},${'c'},${'d'},${'e'}){super(${'a'},${'b'},${'c'},${'d'},${'e'}),this.type=5}`,
      to: '',
    },
  ]),

  ...inFile('@lit/reactive-element/reactive-element.js', [
    { name: 'the polyfill hook', find: js`${ANY}=${ANY}.reactiveElementPolyfillSupport,`, to: '' },
    {
      // Closure Compiler's JSCompiler_renameProperty() returns the name itself for other minifiers.
      name: "Closure Compiler's JSCompiler_renameProperty()",
      find: js`${{ open: /[(\[]/ }}${/\w{1,2}/}("${{ property: /elementProperties|finalized|properties/ }}")`,
      to: js`${'open'}"${'property'}"`,
      times: 5,
    },
    {
      name: 'the polyfill call and the version registry',
      find: js`,${ANY}?.({ReactiveElement:${ANY}}),(${ANY}.reactiveElementVersions??=[]).push("${VERSION}")`,
      to: '',
    },

    // Every attribute of the widgets is a string, which Lit passes through as it is; reactive
    // properties have no options besides `attribute`, `state` and `hasChanged`, and no accessor of
    // the class's own (lit.test.ts: "reactive properties have no options besides …").
    {
      name: "attribute converters: a true Boolean attribute's empty value",
      find: js`${'trustedTypes'}=${ANY}.trustedTypes,${ANY}=${'trustedTypes'}?${'trustedTypes'}.emptyScript:"",`,
      to: '',
    },
    {
      name: 'attribute converters for Boolean, Number, Object and Array',
      find: js`${'converter'}={toAttribute(${ANY},${ANY}){switch${ANY_CODE}}return ${ANY}},
        fromAttribute(${ANY},${ANY}){${ANY_CODE}}return ${ANY}}}`,
      to: js`${'converter'}={toAttribute:t=>t,fromAttribute:t=>t}`,
    },
    {
      name: 'property options: the defaults of those left out (type, converter, reflect, useDefault)',
      find: js`${'defaults'}={attribute:!0,type:String,converter:${ANY},reflect:!1,useDefault:!1,hasChanged:${ANY}}`,
      to: js`${'defaults'}={}`,
    },

    // Decorators: the widgets declare `static properties` (lit.test.ts: no decorators, no
    // Symbol.metadata, no litPropertyMetadata, no addInitializer).
    {
      name: "decorators' metadata",
      find: js`Symbol.metadata??=Symbol("metadata"),${ANY}.litPropertyMetadata??=new WeakMap;`,
      to: '',
    },
    {
      name: 'decorators: addInitializer()',
      find: js`static addInitializer(${'init'}){this._$Ei(),(this.l??=[]).push(${'init'})}`,
      to: '',
    },
    {
      name: 'decorators: initializers inherited',
      find: js`,void 0!==${'superclass'}.l&&(this.l=[...${'superclass'}.l])`,
      to: '',
    },
    { name: 'decorators: initializers run', find: js`,this.constructor.l?.forEach(${'init'}=>${'init'}(this))`, to: '' },
    {
      name: "decorators: properties declared in the class's metadata",
      find: js`const ${'meta'}=this[Symbol.metadata];if(null!==${'meta'}){const ${'props'}=litPropertyMetadata.get(${'meta'});
        if(void 0!==${'props'})for(const[${'name'},${'options'}]of ${'props'})this.elementProperties.set(${'name'},${'options'})}`,
      to: '',
    },

    // A property's accessor is always Lit's own: no `noAccessor`, no accessor of the class's own to wrap.
    {
      name: "accessors: wrapping the class's own",
      find: js`this.prototype.hasOwnProperty(${ANY})&&((${'options'}=Object.create(${'options'})).wrapped=!0),`,
      to: '',
    },
    { name: "accessors: the class's own, looked up", find: js`getOwnPropertyDescriptor:${ANY},`, to: '' },
    {
      name: 'accessors: noAccessor',
      find: js`if(${'options'}.state&&${{ declare: /[^{]*?/ }},!${'options'}.noAccessor){${{ define: /[^{}]*/ }}}`,
      to: js`${'options'}.state&&${'declare'};${'define'}`,
    },
    {
      name: "accessors: Lit's own, without calling a wrapped one",
      find: js`const{get:${'get'},set:${'set'}}=${ANY}(this.prototype,${'name'})??
        {get(){return this[${'key'}]},set(${'v'}){this[${'key'}]=${'v'}}};
        return{get:${'get'},set(${'value'}){const ${'old'}=${'get'}?.call(this);${'set'}?.call(this,${'value'}),
          this.requestUpdate(${'name'},${'old'},${'options'})}`,
      to: js`return{get(){return this[${'key'}]},set(value){const old=this[${'key'}];this[${'key'}]=value,
        this.requestUpdate(${'name'},old,${'options'})}`,
    },
    {
      name: 'accessors: first values of wrapped ones',
      find: js`const ${'props'}=this.constructor.elementProperties;if(${'props'}.size>0)
        for(const[${'name'},${'options'}]of ${'props'}){const{wrapped:${'wrapped'}}=${'options'},${'value'}=this[${'name'}];
          !0!==${'wrapped'}||this._$AL.has(${'name'})||void 0===${'value'}||this.C(${'name'},void 0,${'options'},${'value'})}`,
      to: '',
    },
    {
      // No widget lists a style twice (lit.test.ts: "a widget's styles are a list of css``
      // constants, none twice"); getCompatibleStyle() is the style as it is (css-tag.js, below).
      name: "styles: removing repeated ones from a class's list",
      find: js`static finalizeStyles(${'styles'}){const ${'list'}=[];if(Array.isArray(${'styles'})){
        const ${'unique'}=new Set(${'styles'}.flat(1/0).reverse());for(const ${'style'} of ${'unique'})${'list'}.unshift(${'compatible'}(${'style'}))}
        else void 0!==${'styles'}&&${'list'}.push(${'compatible'}(${'styles'}));return ${'list'}}`,
      to: js`static finalizeStyles(${'styles'}){return[${'styles'}??[]].flat(1/0)}`,
    },

    // Reflection to attributes, `useDefault`, and converters of attributes to properties.
    {
      name: 'reflection and useDefault: requestUpdate()',
      find: js`requestUpdate(${'name'},${'old'},${'options'},${'useNew'}=!1,${'value'}){if(void 0!==${'name'}){
        const ${'ctor'}=this.constructor;
        if(!1===${'useNew'}&&(${'value'}=this[${'name'}]),${'options'}??=${'ctor'}.getPropertyOptions(${'name'}),
          !((${'options'}.hasChanged??${'notEqual'})(${'value'},${'old'})||${'options'}.useDefault&&${'options'}.reflect&&
          ${'value'}===this._$Ej?.get(${'name'})&&!this.hasAttribute(${'ctor'}._$Eu(${'name'},${'options'}))))return;
        this.C(${'name'},${'old'},${'options'})}`,
      to: js`requestUpdate(${'name'},${'old'},${'options'}){if(void 0!==${'name'}){
        if(${'options'}??=this.constructor.getPropertyOptions(${'name'}),!(${'options'}.hasChanged??${'notEqual'})(this[${'name'}],${'old'}))return;
        this.C(${'name'},${'old'})}`,
    },
    {
      name: 'reflection and useDefault: recording a change (C())',
      find: js`C(${'name'},${'old'},{useDefault:${'useDefault'},reflect:${'reflect'},wrapped:${'wrapped'}},${'initial'}){
        ${'useDefault'}&&!(this._$Ej??=new Map).has(${'name'})&&(this._$Ej.set(${'name'},${'initial'}??${'old'}??this[${'name'}]),
          !0!==${'wrapped'}||void 0!==${'initial'})||
        (this._$AL.has(${'name'})||(this.hasUpdated||${'useDefault'}||(${'old'}=void 0),this._$AL.set(${'name'},${'old'})),
          !0===${'reflect'}&&this._$Em!==${'name'}&&(this._$Eq??=new Set).add(${'name'}))}`,
      to: js`C(${'name'},${'old'}){this._$AL.has(${'name'})||(this.hasUpdated||(${'old'}=void 0),this._$AL.set(${'name'},${'old'}))}`,
    },
    {
      name: 'reflection: writing a property to its attribute (_$ET())',
      find: js`_$ET(${'name'},${ANY}){const ${'options'}=this.constructor.elementProperties.get(${'name'}),
        ${'attribute'}=this.constructor._$Eu(${'name'},${'options'});
        if(void 0!==${'attribute'}&&!0===${'options'}.reflect){${/[^{}]*/}}}`,
      to: '',
    },
    {
      name: 'reflection: after an update',
      find: js`update(${'changed'}){this._$Eq&&=this._$Eq.forEach(${'name'}=>this._$ET(${'name'},this[${'name'}])),this._$EM()}`,
      to: js`update(${'changed'}){this._$EM()}`,
    },
    {
      name: 'converters: an attribute to its property (_$AK())',
      find: js`_$AK(${'attribute'},${'value'}){const ${'ctor'}=this.constructor,${'name'}=${'ctor'}._$Eh.get(${'attribute'});
        if(void 0!==${'name'}&&this._$Em!==${'name'}){const ${'options'}=${'ctor'}.getPropertyOptions(${'name'}),
          ${'converter'}="function"==typeof ${'options'}.converter?{fromAttribute:${'options'}.converter}:
            void 0!==${'options'}.converter?.fromAttribute?${'options'}.converter:${ANY};
          this._$Em=${'name'};const ${'parsed'}=${'converter'}.fromAttribute(${'value'},${'options'}.type);
          this[${'name'}]=${'parsed'}??this._$Ej?.get(${'name'})??${'parsed'},this._$Em=null}}`,
      to: js`_$AK(${'attribute'},${'value'}){const ${'name'}=this.constructor._$Eh.get(${'attribute'});
        void 0!==${'name'}&&(this[${'name'}]=${'value'})}`,
    },
    { name: 'reflection: the property being reflected, reset', find: js`,this._$Em=null,this._$Ev()`, to: js`,this._$Ev()` },
  ]),

  ...inFile('lit-element/lit-element.js', [
    // Server-side rendering's hydration, polyfills, and the version registry.
    {
      name: 'the hydration and polyfill hooks',
      find: js`,${'global'}.litElementHydrateSupport?.({LitElement:${'LitElement'}});
        const ${'support'}=${'global'}.litElementPolyfillSupport;${'support'}?.({LitElement:${'LitElement'}})`,
      to: '',
    },
    { name: 'the version registry', find: js`(${ANY}.litElementVersions??=[]).push("${VERSION}");`, to: '' },
    {
      // No widget renders into a server-rendered (declarative) shadow root (lit.test.ts: no
      // createRenderRoot, renderBefore or shadowrootmode).
      name: 'rendering before what a declarative shadow root holds',
      find: js`createRenderRoot(){const ${'root'}=super.createRenderRoot();return this.renderOptions.renderBefore??=${'root'}.firstChild,${'root'}}`,
      to: '',
    },
    // The connection of the rendered part, which only async directives read.
    {
      name: "the rendered part's connection: at the first update",
      find: js`this.hasUpdated||(this.renderOptions.isConnected=this.isConnected),`,
      to: '',
    },
    {
      name: "the rendered part's connection: on connecting and disconnecting",
      find: js`connectedCallback(){super.connectedCallback(),this._$Do?.setConnected(!0)}
        disconnectedCallback(){super.disconnectedCallback(),this._$Do?.setConnected(!1)}`,
      to: '',
    },
  ]),

  ...inFile('@lit/reactive-element/css-tag.js', [
    // The widgets' browsers (Chromium 111, Firefox 113, Safari 16.4, for color-mix() alone) have
    // shadow DOM and constructable style sheets: no <style> elements in their place.
    {
      name: 'constructable style sheets: the feature test',
      find: js`${'supported'}=${'global'}.ShadowRoot&&(void 0===${'global'}.ShadyCSS||${'global'}.ShadyCSS.nativeShadow)&&
        "adoptedStyleSheets"in Document.prototype&&"replace"in CSSStyleSheet.prototype`,
      to: js`${'supported'}=!0`,
    },
    {
      name: 'constructable style sheets: <style> elements in adoptStyles()',
      find: js`${'adoptStyles'}=(${'root'},${'styles'})=>{if(${ANY})${'root'}.adoptedStyleSheets=${'styles'}.map(${{ sheet: /[^)]*/ }});
        else for${/[^}]*/}}}`,
      to: js`${'adoptStyles'}=(${'root'},${'styles'})=>{${'root'}.adoptedStyleSheets=${'styles'}.map(${'sheet'})}`,
    },
    {
      name: 'constructable style sheets: getCompatibleStyle() returns the style as it is',
      find: js`${'compatible'}=${ANY}?${'s'}=>${'s'}:${'style'}=>${'style'} instanceof CSSStyleSheet?(${ANY}=>{${/[^}]*/}})(${'style'}):${'style'};`,
      to: js`${'compatible'}=t=>t;`,
    },
    {
      // Each of the widgets' `css` results is a module's constant, made once: no cache by template.
      name: "a CSSResult's style sheet: the cache by template",
      find: js`get styleSheet(){let ${'sheet'}=this.o;const ${'strings'}=this.t;if(${ANY}&&void 0===${'sheet'}){
        const ${'cacheable'}=void 0!==${'strings'}&&1===${'strings'}.length;${'cacheable'}&&(${'sheet'}=${'cache'}.get(${'strings'})),
        void 0===${'sheet'}&&((this.o=${'sheet'}=new CSSStyleSheet).replaceSync(this.cssText),${'cacheable'}&&${'cache'}.set(${'strings'},${'sheet'}))}
        return ${'sheet'}}`,
      to: js`get styleSheet(){let ${'sheet'}=this.o;return void 0===${'sheet'}&&(this.o=${'sheet'}=new CSSStyleSheet).replaceSync(this.cssText),${'sheet'}}`,
    },
    // No widget's styles interpolate (lit.test.ts: "their styles interpolate nothing"), and only the
    // css tag makes a CSSResult (no widget imports CSSResult or unsafeCSS).
    {
      name: 'the CSSResult constructor: its check of who calls it',
      find: js`if(this._$cssResult$=!0,${ANY}!==${ANY})throw Error("CSSResult is not constructable. Use \`unsafeCSS\` or \`css\` instead.");`,
      to: js`this._$cssResult$=!0;`,
    },
    {
      name: 'the css tag: values, and their checks',
      find: js`${'css'}=(${'strings'},...${'values'})=>{const ${'text'}=1===${'strings'}.length?${'strings'}[0]:
        ${'values'}.reduce((${'sum'},${'v'},${'i'})=>${'sum'}+(${'value'}=>{if(!0===${'value'}._$cssResult$)return ${'value'}.cssText;
          if("number"==typeof ${'value'})return ${'value'};
          throw Error("Value passed to 'css' function must be a 'css' function result: "+${'value'}+". Use 'unsafeCSS' to pass non-literal values, but take care to ensure page security.")})
          (${'v'})+${'strings'}[${'i'}+1],${'strings'}[0]);
        return new ${'CSSResult'}(${'text'},${'strings'},${'secret'})}`,
      to: js`${'css'}=${'strings'}=>new ${'CSSResult'}(${'strings'}[0],${'strings'},${'secret'})`,
    },
  ]),
];

/** Which patched file of Lit a module is (by the last two parts of its path, as the build and the test runner name it). */
export const litFileOf = (id: string): LitFile | undefined => {
  const path = id.replaceAll('\\', '/').replace(/[?#].*$/, '');
  return LIT_FILES.find((file) => path.endsWith(`/${file.split('/').slice(-2).join('/')}`));
};

/**
 * The patched code of a file of Lit (`id`: its path), or undefined for any other module. Throws,
 * naming the patch and the file, when a patch occurs other than as often as it says.
 */
export function patchLit(id: string, code: string): string | undefined {
  const file = litFileOf(id);
  if (!file) return undefined;
  for (const patch of LIT_PATCHES) {
    if (patch.file !== file) continue;
    const found = code.match(patch.find)?.length ?? 0;
    if (found !== patch.times)
      throw new Error(
        `Lit patch "${patch.name}" (scripts/lit-patches.ts) is found ${found === 1 ? 'once' : `${found} times`} in ${file} ` +
          `(${id}), not ${patch.times === 1 ? 'once' : `${patch.times} times`}: see what this Lit does there now, then fix or drop the patch.`,
      );
    code = code.replace(patch.find, patch.replacement);
  }
  return code;
}
