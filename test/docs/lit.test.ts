/**
 * What the build leaves out of Lit (scripts/lit-patches.ts) must stay unused by the widgets and
 * the loader. Each test here guards some of those patches: when one fails, either do without what
 * it names, or take its patches out of scripts/lit-patches.ts. The browser tests cannot see these:
 * they run Lit's development build, which the build does not patch (`npm run test:browser:built-lit`
 * runs them on the patched production build).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { parseAst } from 'vite';

const root = new URL('../../', import.meta.url);
/** The code that ships: the widgets and the loader, without their tests and German words. */
const sources = ['widgets/', 'loader/'].flatMap((folder) =>
  readdirSync(new URL(folder, root), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.endsWith('.de.ts'))
    .map((file) => {
      const code = readFileSync(new URL(folder + file, root), 'utf8');
      return { file: folder + file, code, ast: parseAst(code, { lang: 'ts' }) };
    }),
);

interface Node {
  type: string;
  [key: string]: unknown;
}
/** Every node of a tree, depth first. */
const nodes = function* (node: unknown): Generator<Node> {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const item of node) yield* nodes(item);
    return;
  }
  if (typeof (node as Node).type === 'string') yield node as Node;
  for (const value of Object.values(node)) yield* nodes(value);
};
const nameOf = (key: unknown) => {
  const k = key as { type: string; name?: string; value?: unknown };
  return k.type === 'Identifier' ? k.name : typeof k.value === 'string' ? k.value : undefined;
};

test('the shipped code is read', () => {
  assert.ok(sources.length > 10 && sources.some((s) => s.file === 'widgets/shared/base.ts'));
});

test("of Lit, the widgets import only what the build leaves whole, from 'lit' (no svg, mathml, directives, unsafeCSS)", () => {
  // render() draws into a light-DOM container (a map's popup); it needs nothing the build leaves out.
  const allowed = new Set(['LitElement', 'html', 'css', 'nothing', 'noChange', 'render']);
  for (const { file, code, ast } of sources) {
    for (const [, module] of code.matchAll(/['"]((?:lit|lit-html|lit-element|@lit|@lit-labs)(?:\/[^'"]*)?)['"]/g))
      assert.equal(module, 'lit', `${file}: imports ${module}, which the build's edits of Lit do not allow for`);
    for (const node of nodes(ast)) {
      if (node.type !== 'ImportDeclaration' && node.type !== 'ExportNamedDeclaration' && node.type !== 'ExportAllDeclaration')
        continue;
      if ((node.source as { value?: string } | null)?.value !== 'lit' || node.importKind === 'type' || node.exportKind === 'type')
        continue;
      assert.notEqual(node.type, 'ExportAllDeclaration', `${file}: re-exports all of lit`);
      for (const specifier of (node.specifiers ?? []) as Node[]) {
        if (specifier.importKind === 'type' || specifier.exportKind === 'type') continue;
        const name = nameOf(specifier.imported ?? specifier.local);
        assert.ok(
          specifier.type === 'ImportSpecifier' || specifier.type === 'ExportSpecifier',
          `${file}: imports lit as a namespace or default`,
        );
        assert.ok(allowed.has(name!), `${file}: imports ${name} from lit, which the build leaves out (scripts/lit-patches.ts)`);
        assert.equal(nameOf(specifier.local), name, `${file}: renames ${name} (the template checks below look for it by name)`);
      }
    }
  }
});

test('no widget uses what Lit offers to decorators, directives, compiled templates, scoped registries or server rendering', () => {
  for (const { file, code } of sources)
    for (const word of [
      /@(property|state|customElement|query\w*|eventOptions)\(/,
      /\baddInitializer\b/,
      /\blitPropertyMetadata\b/,
      /Symbol\.metadata/,
      /\bcreateProperty\b/,
      /_\$lit(Type|Directive)\$/,
      /\bcreationScope\b/,
      // Lit renders before what a server-rendered (declarative) shadow root holds: left out.
      /\bcreateRenderRoot\b/,
      /\brenderBefore\b/,
      /shadowrootmode/i,
    ])
      assert.doesNotMatch(code, word, `${file}: uses ${word.source}, which the build leaves out of Lit (scripts/lit-patches.ts)`);
});

test('reactive properties have no options besides attribute (a name), state and hasChanged, and no accessor of their own', () => {
  let checked = 0;
  for (const { file, ast } of sources) {
    for (const klass of nodes(ast)) {
      if (klass.type !== 'ClassBody') continue;
      const members = klass.body as Node[];
      const properties = members.find((m) => m.type === 'PropertyDefinition' && m.static && nameOf(m.key) === 'properties');
      if (!properties) continue;
      const declared = properties.value as Node;
      assert.equal(declared.type, 'ObjectExpression', `${file}: declare \`static properties\` as an object literal`);
      for (const property of declared.properties as Node[]) {
        const name = property.type === 'Property' ? nameOf(property.key) : undefined;
        assert.ok(name && !property.computed, `${file}: name each reactive property plainly`);
        const options = property.value as Node;
        assert.equal(options.type, 'ObjectExpression', `${file}: ${name}'s options as an object literal`);
        for (const option of options.properties as Node[]) {
          const key = option.type === 'Property' ? nameOf(option.key) : '...';
          const value = (option.value as { value?: unknown } | undefined)?.value;
          // Every attribute is a string: Lit's converters for other types (`type:`), custom
          // converters, reflection (`reflect:`), `useDefault` and `noAccessor` are left out.
          assert.ok(
            (key === 'attribute' && (typeof value === 'string' || value === false)) ||
              (key === 'state' && value === true) ||
              key === 'hasChanged',
            `${file}: ${name} has the option ${key}, which the build leaves out of Lit: declare the property as a string (parse its value in the widget), or take the patches out of scripts/lit-patches.ts`,
          );
        }
        // An accessor of the class's own would be wrapped by Lit's; the build leaves that out.
        const own = members.find(
          (m) => m !== property && nameOf(m.key) === name && (m.type === 'MethodDefinition' || m.type === 'AccessorProperty'),
        );
        assert.equal(own, undefined, `${file}: ${name} is a reactive property and has an accessor or method of the same name`);
        checked++;
      }
    }
  }
  assert.ok(checked >= 10, 'the reactive properties are read');
});

test("a widget's styles are a list of css`` constants, none twice (the build's Lit does not remove repeated ones)", () => {
  const sheets = new Set<string>();
  for (const { ast } of sources)
    for (const node of nodes(ast))
      if (node.type === 'VariableDeclarator' && (node.init as Node | null)?.type === 'TaggedTemplateExpression')
        if (nameOf((node.init as Node).tag) === 'css') sheets.add(nameOf(node.id)!);
  let lists = 0;
  for (const { file, ast } of sources) {
    for (const node of nodes(ast)) {
      if (node.type !== 'PropertyDefinition' || !node.static || nameOf(node.key) !== 'styles') continue;
      const value = node.value as Node;
      const listed = value.type === 'ArrayExpression' ? (value.elements as Node[]) : [value];
      const names = listed.map((element) => (element.type === 'Identifier' ? nameOf(element) : undefined));
      for (const name of names)
        assert.ok(name && sheets.has(name), `${file}: list a widget's styles by the names of their css\`\` constants`);
      assert.equal(new Set(names).size, names.length, `${file}: a style listed twice`);
      lists++;
    }
  }
  assert.ok(sheets.size > 4 && lists >= 3, 'the styles are read');
});

/** Elements whose text Lit parses as raw text, for bindings in it. */
const RAW_TEXT = /^(script|style|textarea|title)$/i;

/**
 * What is wrong with the places of a template's bindings, for the build's Lit: a binding on an
 * element (`<div ${…}>`), in a comment, or in the text of a raw-text element, and markup in such text.
 */
const misplacedBindings = (strings: readonly string[]) => {
  const wrong: string[] = [];
  let state: 'text' | 'tag' | 'comment' | 'raw' = 'text';
  let quote = '';
  let tag = '';
  strings.forEach((text, index) => {
    for (let i = 0; i < text.length; i++) {
      const rest = text.slice(i);
      if (state === 'text') {
        if (rest.startsWith('<!--')) [state, i] = ['comment', i + 3];
        else {
          const open = /^<(\/?)([a-zA-Z][^\s/>]*)/.exec(rest);
          if (open) [state, tag, i] = ['tag', open[1] ? '' : open[2]!, i + open[0].length - 1];
        }
      } else if (state === 'comment') {
        if (rest.startsWith('-->')) [state, i] = ['text', i + 2];
      } else if (state === 'raw') {
        if (rest.toLowerCase().startsWith(`</${tag.toLowerCase()}`)) [state, i, tag] = ['tag', i + tag.length + 1, ''];
        else if (text[i] === '<') wrong.push(`markup in <${tag}>`);
      } else if (quote) {
        if (text[i] === quote) quote = '';
      } else if (text[i] === '"' || text[i] === "'") quote = text[i]!;
      else if (text[i] === '>') state = RAW_TEXT.test(tag) ? 'raw' : 'text';
    }
    if (index === strings.length - 1) return;
    if (state === 'tag' && !quote && !/=\s*$/.test(text)) wrong.push(`a binding on an element, after "${text.slice(-30)}"`);
    if (state === 'comment') wrong.push('a binding in a comment');
    if (state === 'raw') wrong.push(`a binding in the text of <${tag}> (set it by property: .value=\${…})`);
  });
  return wrong;
};

test('the guard of the templates finds what it should', () => {
  assert.deepEqual(misplacedBindings(['<p class="a ', '" title=', '>', '</p><textarea .value=', '></textarea>']), []);
  for (const strings of [
    ['<div ', '></div>'],
    ['<p>', '<!-- ', ' --></p>'],
    ['<textarea>', '</textarea>'],
    ['<title><b></b></title>'],
  ])
    assert.notDeepEqual(misplacedBindings(strings), [], strings.join('${…}'));
});

test("the widgets' templates bind only children and attributes; their styles interpolate nothing", () => {
  let templates = 0;
  for (const { file, ast } of sources) {
    for (const node of nodes(ast)) {
      if (node.type !== 'TaggedTemplateExpression') continue;
      const tag = nameOf(node.tag);
      const quasi = node.quasi as { quasis: { value: { raw: string } }[]; expressions: unknown[] };
      if (tag === 'css')
        // The build's `css` tag takes the template's one string (scripts/lit-patches.ts).
        assert.equal(quasi.expressions.length, 0, `${file}: a css\`\` template with \${…} in it: use a custom property`);
      if (tag !== 'html') continue;
      templates++;
      const wrong = misplacedBindings(quasi.quasis.map((q) => q.value.raw));
      assert.deepEqual(wrong, [], `${file}: ${wrong.join('; ')}, which the build leaves out of Lit (scripts/lit-patches.ts)`);
    }
  }
  assert.ok(templates > 20, 'the templates are read');
});
