/**
 * Released versions are sealed: a page pins a release's loader by its hash (docs/embedding.md,
 * "Pinned versions"), so once a release is out, no build may publish other files under its name.
 * `releases.json` (kept in git) holds, per released version, a fingerprint of each pinned loader's
 * integrity list (every file it may load, with its hash). `npm run release` records the version
 * being built; from then on a build of that version whose files differ stops, and says to bump
 * package.json's version. A version not yet recorded may change with every build (development).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';

/** Per version (`0.1.0`), per pinned loader (`v1.1.0`), its fingerprint. */
export type Releases = Record<string, Record<string, string>>;

export const RELEASES_FILE = 'releases.json';

/** The folder of a release's pinned loader: `v<loader major>.<minor>.<patch>` of release `0.<minor>.<patch>`. */
export const pinnedDir = (release: string, loader: number) => `v${loader}.${release.split(/[.+-]/).slice(1, 3).join('.')}`;

/** The fingerprint of a pinned loader's files (path → SRI hash): the same files give the same one, in any order. */
export const fingerprint = (files: Record<string, string>) =>
  `sha384-${createHash('sha384')
    .update(JSON.stringify(Object.entries(files).sort(([a], [b]) => (a < b ? -1 : 1))))
    .digest('base64')}`;

export const readReleases = (file: string): Releases =>
  existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Releases) : {};

/**
 * Why `files`, built as pinned loader `dir` of `release`, may not be published; undefined when they
 * may (the release is not sealed, or they are its files).
 */
export const sealBroken = (releases: Releases, release: string, dir: string, files: Record<string, string>) => {
  const sealed = releases[release]?.[dir];
  if (!sealed || sealed === fingerprint(files)) return undefined;
  return `Release ${release} is out (${RELEASES_FILE}), and this build's ${dir} differs from it: pages pin ${dir}/loader.js by its hash, and the files it loads. Bump package.json's version (npm version patch --no-git-tag-version), build again, and record the new release with \`npm run release\` once it is out.`;
};

/**
 * `releases` with `release` recorded as out, from its pinned loaders' integrity lists (`dir` →
 * what the build wrote there, or undefined when it is missing); throws what to do instead.
 */
export const recordRelease = (
  releases: Releases,
  release: string,
  lists: Record<string, { release: string; files: Record<string, string> } | undefined>,
): Releases => {
  const built: Record<string, string> = {};
  for (const [dir, list] of Object.entries(lists)) {
    if (!list) throw new Error(`dist/widgets/${dir}/integrity.json is missing: \`npm run build\` makes it.`);
    if (list.release !== release)
      throw new Error(`dist/widgets/${dir} was built as release ${list.release}, not ${release}: \`npm run build\` first.`);
    built[dir] = fingerprint(list.files);
  }
  const recorded = releases[release];
  if (recorded && Object.entries(built).some(([dir, print]) => recorded[dir] !== print))
    throw new Error(`Release ${release} is already recorded with other files: bump package.json's version.`);
  return { ...releases, [release]: built };
};
