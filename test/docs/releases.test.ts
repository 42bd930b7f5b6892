/**
 * "A pinned loader never changes" (docs/embedding.md, "Pinned versions"), as the build keeps it
 * (scripts/releases.ts): against this build's own integrity lists, a release recorded with exactly
 * its files may be built again, and one recorded with any file of another hash stops the build with
 * what to do; `npm run release` records this build, and refuses a build that is missing, of another
 * version, or other than the files already recorded; every recorded release in releases.json is a
 * version of the right shape, with both loaders. Runs after `npm run build`.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fingerprint, pinnedDir, readReleases, recordRelease, sealBroken } from '../../scripts/releases.ts';

const root = new URL('../../', import.meta.url);
const { version } = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { version: string };
const lists = [1, 2].map((loader) => {
  const dir = pinnedDir(version, loader);
  const list = JSON.parse(readFileSync(new URL(`dist/widgets/${dir}/integrity.json`, root), 'utf8')) as {
    release: string;
    files: Record<string, string>;
  };
  return { dir, list, files: list.files };
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

test('recording a release: this build’s lists, once; a missing list, another version’s or other files are refused with what to do', () => {
  const built = Object.fromEntries(lists.map(({ dir, list }) => [dir, list]));
  const recorded = recordRelease({ '0.0.1': { 'v1.0.1': 'sha384-a', 'v2.0.1': 'sha384-b' } }, version, built);
  assert.deepEqual(Object.keys(recorded), ['0.0.1', version], 'earlier releases kept');
  for (const { dir, files } of lists) {
    assert.equal(recorded[version]![dir], fingerprint(files));
    assert.equal(sealBroken(recorded, version, dir, files), undefined, 'the recorded build builds again');
  }
  assert.deepEqual(recordRelease(recorded, version, built), recorded, 'recorded again: the same');
  const [first, second] = lists;
  assert.throws(
    () => recordRelease({}, version, { ...built, [first!.dir]: undefined }),
    /integrity\.json is missing: `npm run build` makes it/,
  );
  assert.throws(
    () => recordRelease({}, version, { ...built, [second!.dir]: { ...second!.list, release: '0.0.9' } }),
    /was built as release 0\.0\.9, not .*`npm run build` first/,
  );
  const other = { [version]: { ...recorded[version]!, [first!.dir]: 'sha384-other' } };
  assert.throws(() => recordRelease(other, version, built), /already recorded with other files: bump package\.json's version/);
});

test('a release’s pinned folders are named by the loader’s major and the release’s minor and patch', () => {
  assert.equal(pinnedDir('0.1.0', 1), 'v1.1.0');
  assert.equal(pinnedDir('0.12.3', 2), 'v2.12.3');
  assert.equal(pinnedDir('0.2.1-rc.1', 1), 'v1.2.1');
});
