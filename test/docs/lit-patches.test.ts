/**
 * The build's patches of Lit (scripts/lit-patches.ts) against the Lit that is installed: each is
 * found as often as it says, in the order the build makes them, and what they leave is still
 * JavaScript. After a Lit update this names every patch that no longer fits, rather than the build's
 * first.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { parseAst } from 'vite';
import { LIT_FILES, LIT_PATCHES, litFileOf, patchLit, type LitFile } from '../../scripts/lit-patches.ts';

// The files the build takes: the browsers' production build (not `node/`, not `development/`).
const pathOf = (file: string) => fileURLToPath(new URL(`../../node_modules/${file}`, import.meta.url));
const installed = (file: LitFile) => readFileSync(pathOf(file), 'utf8');

test('each patch names a file of Lit, and each name is its own', () => {
  assert.equal(new Set(LIT_PATCHES.map((p) => `${p.file}: ${p.name}`)).size, LIT_PATCHES.length);
  for (const file of LIT_FILES) {
    assert.ok(
      LIT_PATCHES.some((p) => p.file === file),
      `${file} has patches`,
    );
    assert.equal(litFileOf(pathOf(file)), file);
  }
  assert.equal(litFileOf(pathOf('lit-html/lit-html.js').replace(/lit-html\.js$/, 'development/lit-html.js')), undefined);
});

for (const file of LIT_FILES) {
  const patches = LIT_PATCHES.filter((p) => p.file === file);
  test(`${file}: each of its ${patches.length} patches is found as often as it says, and the result parses`, () => {
    let code = installed(file);
    const wrong: string[] = [];
    for (const patch of patches) {
      const found = code.match(patch.find)?.length ?? 0;
      if (found !== patch.times) wrong.push(`"${patch.name}" is found ${found} times, not ${patch.times}`);
      code = code.replace(patch.find, patch.replacement);
    }
    assert.deepEqual(wrong, [], `in ${pathOf(file)} (see what this Lit does there now)`);
    assert.equal(patchLit(pathOf(file), installed(file)), code);
    assert.doesNotThrow(() => parseAst(code), `${file} is still JavaScript once patched`);
    assert.ok(code.length < installed(file).length, 'something is left out');
  });
}

test('a patch that is not found, or found too often, stops with its name and its file', () => {
  const file = 'lit-html/lit-html.js';
  const patch = LIT_PATCHES.find((p) => p.file === file && p.name === 'bindings in comments')!;
  const code = installed(file);
  const [match] = code.match(patch.find)!;
  const named = (found: string) =>
    new RegExp(`Lit patch "bindings in comments" \\(scripts/lit-patches\\.ts\\) is found ${found} in lit-html/lit-html\\.js`);

  assert.throws(() => patchLit(pathOf(file), code.replace(match, match.replace('type:7', 'type:8'))), named('0 times'));
  assert.throws(() => patchLit(pathOf(file), `${code};${match}`), named('2 times'));
  // Other modules pass untouched.
  assert.equal(patchLit('/src/widgets/shared/base.ts', code), undefined);
});
