// How every launcher here starts Chromium: the browser tests (web-test-runner.config.mjs), the
// end-to-end tests (playwright.config.ts) and the bench. Plain JavaScript, so that Node runs it
// without a compiler (the bench); scripts/chromium.d.mts gives TypeScript its types.

/**
 * Flags for a headless run in a container or on a CI machine. Playwright adds `--no-sandbox` as root.
 * - no GPU there: software rendering from the start, without a failed probe;
 * - /dev/shm is small in containers (64 MB in Docker), and Chromium crashes when it fills: /tmp instead;
 * - no requests of its own (updates of components, safe browsing lists, first-run tasks), which
 *   would compete with the tests' and could block on a machine without the internet.
 */
export const CHROMIUM_ARGS = Object.freeze([
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
]);

/**
 * Playwright's `launchOptions`: CHROME_PATH (`npm test` sets it to the Chromium it found), else
 * Debian's; the flags above, then a launcher's own.
 */
export const chromiumLaunchOptions = ({ executablePath = process.env.CHROME_PATH || '/usr/bin/chromium', args = [] } = {}) => ({
  executablePath,
  args: [...CHROMIUM_ARGS, ...args],
});
