/**
 * What the build leaves out of Lit (vite.config.ts, LIT_UNUSED) must stay unused by the widgets:
 * attribute converters for other types than strings. A widget that declares `type:` on a property
 * would get its attribute as a string, silently; this test says so first.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

const widgets = new URL('../../widgets/', import.meta.url);
const sources = readdirSync(widgets, { recursive: true, encoding: 'utf8' }).filter(
  (file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.endsWith('.de.ts'),
);

test('no widget property declares an attribute type other than string (its converter is left out of the build)', () => {
  assert.ok(sources.length > 5, 'the widgets are read');
  for (const file of sources) {
    const code = readFileSync(new URL(file, widgets), 'utf8');
    const properties = code.match(/static override properties[^=]*=\s*\{[^;]*?\n {2}\};/s)?.[0] ?? '';
    assert.doesNotMatch(properties, /\btype:/, `${file}: declare the property as a string, and parse its value in the widget`);
  }
});
