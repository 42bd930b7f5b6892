/**
 * "A pinned loader never changes" (docs/embedding.md, "Pinned versions"), as the build keeps it
 * (scripts/releases.ts): against this build's own integrity lists, a release recorded with exactly
 * its files may be built again, and one recorded with any file of another hash stops the build with
 * what to do; every recorded release in releases.json is a version of the right shape, with both
 * loaders. Runs after `npm run build`.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fingerprint, readReleases, sealBroken } from '../../scripts/releases.ts';

const root = new URL('../../', import.meta.url);
const { version } = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { version: string };
const [, minor, patch] = version.split('.');
const lists = [1, 2].map((loader) => {
  const dir = `v${loader}.${minor}.${patch}`;
  const list = JSON.parse(readFileSync(new URL(`dist/widgets/${dir}/integrity.json`, root), 'utf8')) as {
    files: Record<string, string>;
  };
  return { dir, files: list.files };
});

test('a release recorded with this build’s files builds again; a file of another hash stops it, saying to bump the version', () => {
  for (const { dir, files } of lists) {
    assert.equal(sealBroken({}, version, dir, files), undefined, 'not recorded: free to change');
    const sealed = { [version]: { [dir]: fingerprint(files) } };
    assert.equal(sealBroken(sealed, version, dir, files), undefined, 'the same files');
    // The same files listed in another order are the same release.
    const reordered = Object.fromEntries(Object.entries(files).reverse());
    assert.equal(sealBroken(sealed, version, dir, reordered), undefined, 'the same files, in another order');
    const [chunk, hash] = Object.entries(files).at(-1)!;
    const changed = { ...files, [chunk]: hash.replace(/^sha384-./, (h) => (h.endsWith('A') ? 'sha384-B' : 'sha384-A')) };
    assert.match(
      sealBroken(sealed, version, dir, changed)!,
      new RegExp(`Release ${version.replace(/\./g, '\\.')} is out .*Bump package\\.json's version`),
    );
    // Another release's record says nothing of this one.
    assert.equal(sealBroken({ '0.0.1': { [dir]: 'sha384-x' } }, version, dir, changed), undefined);
  }
});

test('releases.json records versions 0.<minor>.<patch>, each with both pinned loaders, and this build is not one with other files', () => {
  const releases = readReleases(new URL('releases.json', root).pathname);
  for (const [release, loaders] of Object.entries(releases)) {
    const [, m, p] = /^0\.(\d+)\.(\d+)$/.exec(release) ?? [];
    assert.ok(m !== undefined, `${release} is a version 0.<minor>.<patch>`);
    assert.deepEqual(Object.keys(loaders).sort(), [`v1.${m}.${p}`, `v2.${m}.${p}`]);
  }
  for (const { dir, files } of lists) assert.equal(sealBroken(releases, version, dir, files), undefined);
});
