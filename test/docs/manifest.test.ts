/**
 * The tables of each widget in docs/widgets.md against the custom-elements manifest the build writes from the
 * widgets' JSDoc (dist/custom-elements.json): options, events, parts and custom properties must say
 * the same, so that neither can change alone. Runs after `npm run build`.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { existsSync } from 'node:fs';
import { OPTIONS, WIDGET_TYPES, type WidgetType } from '../../contract/index.ts';

const root = new URL('../../', import.meta.url);
const readme = readFileSync(new URL('docs/widgets.md', root), 'utf8');
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { customElements?: string };

interface Declaration {
  tagName?: string;
  attributes?: { name: string }[];
  events?: { name: string }[];
  cssParts?: { name: string }[];
  cssProperties?: { name: string; default?: string }[];
}
const manifest = JSON.parse(readFileSync(new URL(pkg.customElements!, root), 'utf8')) as {
  modules: { declarations?: Declaration[] }[];
};
const elements = manifest.modules.flatMap((m) => m.declarations ?? []).filter((d) => d.tagName);
/** The types this build offers: those with a widget folder (as vite.config.ts decides). */
const built = (Object.keys(WIDGET_TYPES) as WidgetType[]).filter((type) =>
  existsSync(new URL(`widgets/${type}/${type}.ts`, root)),
);

/** Every widget's attributes: the key, the service's URL and the locale. */
const COMMON = ['key', 'base-url', 'locale'];

const sectionOf = (type: string) => {
  const start = readme.indexOf(`## The ${type} widget (\`service-${type}\``);
  assert.ok(start >= 0, `docs/widgets.md has a section for the ${type} widget`);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end);
};
const codes = (text: string) => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
/** Where the table whose first header cell is `header` starts (Prettier pads the cells), or -1. */
const headerAt = (section: string, header: string) => section.search(new RegExp(`^\\|\\s*${header}\\s*\\|`, 'm'));
/** The body rows of that table. */
const tableRows = (section: string, header: string) => {
  const lines = section.slice(headerAt(section, header)).split('\n').slice(2);
  return lines.slice(
    0,
    lines.findIndex((line) => !line.startsWith('|')),
  );
};

test('package.json names the manifest, and it describes each built widget', () => {
  assert.equal(pkg.customElements, 'dist/custom-elements.json');
  assert.deepEqual(elements.map((e) => e.tagName).sort(), built.map((type) => `service-${type}`).sort());
});

for (const type of built) {
  test(`docs/widgets.md's ${type} widget says what the manifest says`, () => {
    const element = elements.find((e) => e.tagName === `service-${type}`)!;
    const section = sectionOf(type);

    const options =
      headerAt(section, 'placeholder attribute') >= 0
        ? tableRows(section, 'placeholder attribute').map((row) => codes(row.split('|')[2]!)[0]!)
        : [];
    const attributes = element.attributes!.map((a) => a.name).filter((name) => !COMMON.includes(name));
    assert.deepEqual(options.sort(), [...attributes].sort(), 'options');
    assert.deepEqual([...attributes].sort(), [...OPTIONS[type]].sort(), 'the contract names the same options');
    assert.deepEqual(
      element
        .attributes!.map((a) => a.name)
        .filter((name) => COMMON.includes(name))
        .sort(),
      [...COMMON].sort(),
      'the common attributes',
    );

    const events = tableRows(section, 'event').map((row) => codes(row.split('|')[1]!)[0]!);
    assert.deepEqual(events.sort(), element.events!.map((e) => e.name).sort(), 'events');

    const parts = codes(section.match(/Parts: ([^.]*)\./)![1]!);
    assert.deepEqual(parts.sort(), element.cssParts!.map((p) => p.name).sort(), 'parts');

    // Custom properties are listed once, with the registration widget, for all of them.
    const registration = sectionOf('registration');
    const listed = [...registration.matchAll(/`(--service-[\w-]+)` \(`([^`]+)`\)/g)].map((m) => `${m[1]}=${m[2]}`);
    const declared = element.cssProperties!.map((p) => `${p.name}=${p.default}`);
    assert.deepEqual(listed.sort(), declared.sort(), 'custom properties and their defaults');
  });
}
