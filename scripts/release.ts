// `npm run release`: records the release in package.json's version as out (releases.json, kept in
// git), from the pinned loaders' integrity lists of the last build: from then on no build publishes
// other files under its name (scripts/releases.ts). Run it on the build that is deployed, and commit
// releases.json; the next change to the widgets needs a new version.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { pinnedDir, readReleases, recordRelease, RELEASES_FILE } from './releases.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const { version } = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { version: string };
const lists = Object.fromEntries(
  [1, 2].map((loader) => {
    const list = `${root}dist/widgets/${pinnedDir(version, loader)}/integrity.json`;
    return [pinnedDir(version, loader), existsSync(list) ? JSON.parse(readFileSync(list, 'utf8')) : undefined];
  }),
);
try {
  writeFileSync(
    `${root}${RELEASES_FILE}`,
    JSON.stringify(recordRelease(readReleases(`${root}${RELEASES_FILE}`), version, lists), null, 2) + '\n',
  );
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
console.log(
  `Release ${version} recorded in ${RELEASES_FILE} (${Object.keys(lists).join(', ')}): commit it. Widget changes now need a new version.`,
);
