/**
 * The app's build (a pass of scripts/build.ts, after the demo's): its one page (app/index.html),
 * its script and styles into dist/app/, which the service serves at `/app/` in development and in
 * production. The custom-elements manifest is handed to it as `__WIDGETS__`, as to the demo, so that
 * the colours it offers are the widgets' own custom properties with their defaults; this release's
 * pinned loaders as `__PINNED__`, for the pinned snippet.
 */
import type { InlineConfig } from 'vite';
import type { Facts, Pinned } from '../demo/src/showcase.ts';

export function appConfig(root: string, facts: Facts, pinned: Pinned): InlineConfig {
  return {
    configFile: false,
    root: `${root}app/`,
    // Relative: the service may answer under a path of its PUBLIC_URL (https://example.com/booking/
    // behind a proxy), where /app/assets/… would be outside it and the app would not load.
    base: './',
    publicDir: false,
    logLevel: 'warn',
    define: { __WIDGETS__: JSON.stringify(facts), __PINNED__: JSON.stringify(pinned) },
    build: {
      outDir: `${root}dist/app`,
      emptyOutDir: true,
      target: 'es2022',
      // Nothing inline: the page runs under the service's strict Content-Security-Policy.
      modulePreload: { polyfill: false },
      assetsInlineLimit: 0,
    },
  };
}
