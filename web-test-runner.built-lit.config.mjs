// The browser tests again, on the Lit that ships: its production build with the build's patches
// (scripts/lit-patches.ts: the Trusted Types policy's name and what the widgets never use). The
// usual run (web-test-runner.config.mjs) takes Lit's development build, for its warnings, which the
// patches do not touch; this run shows that the widgets do not need what the patches leave out.
import base from './web-test-runner.config.mjs';
import { patchLit } from './scripts/lit-patches.ts';

export default {
  ...base,
  nodeResolve: { exportConditions: ['production'] },
  plugins: [
    ...base.plugins,
    {
      name: 'built-lit',
      transform({ path, body }) {
        if (/[\\/](lit|lit-html|lit-element|@lit[\\/][^\\/]+)[\\/]development[\\/]/.test(path))
          throw new Error(`Lit's development build was served: ${path}`);
        const patched = patchLit(path, body);
        if (patched !== undefined) return { body: patched };
      },
    },
  ],
};
