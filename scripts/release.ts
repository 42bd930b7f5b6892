// `npm run release`: records the release in package.json's version as out (releases.json, kept in
// git), from the pinned loaders' integrity lists of the last build: from then on no build publishes
// other files under its name (scripts/releases.ts). Run it on the build that is deployed, and commit
// releases.json; the next change to the widgets needs a new version.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { fingerprint, readReleases, RELEASES_FILE } from './releases.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const { version } = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { version: string };
const [, minor, patch] = version.split('.');
const releases = readReleases(`${root}${RELEASES_FILE}`);
const built: Record<string, string> = {};
for (const loader of [1, 2]) {
  const dir = `v${loader}.${minor}.${patch}`;
  let list: { release: string; files: Record<string, string> };
  try {
    list = JSON.parse(readFileSync(`${root}dist/widgets/${dir}/integrity.json`, 'utf8'));
  } catch {
    console.error(`dist/widgets/${dir}/integrity.json is missing: \`npm run build\` makes it.`);
    process.exit(1);
  }
  if (list.release !== version) {
    console.error(`dist/widgets/${dir} was built as release ${list.release}, not ${version}: \`npm run build\` first.`);
    process.exit(1);
  }
  built[dir] = fingerprint(list.files);
}
const recorded = releases[version];
if (recorded && Object.entries(built).some(([dir, print]) => recorded[dir] !== print)) {
  console.error(`Release ${version} is already recorded with other files: bump package.json's version.`);
  process.exit(1);
}
releases[version] = built;
writeFileSync(`${root}${RELEASES_FILE}`, JSON.stringify(releases, null, 2) + '\n');
console.log(
  `Release ${version} recorded in ${RELEASES_FILE} (${Object.keys(built).join(', ')}): commit it. Widget changes now need a new version.`,
);
