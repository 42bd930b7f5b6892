// The browser tests again, on the Lit that ships: its production build with the build's edits
// (vite.config.ts: the Trusted Types policy's name and LIT_UNUSED). The usual run
// (web-test-runner.config.mjs) takes Lit's development build, for its warnings, which the edits
// do not touch; this run shows that the widgets do not need what the edits leave out.
import base from './web-test-runner.config.mjs';
import { LIT_UNUSED } from './vite.config.ts';
import { TRUSTED_TYPES_POLICY } from './contract/index.ts';

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
        if (/[\\/]lit-html[\\/]lit-html\.js$/.test(path))
          body = body.replace(/createPolicy\((['"`])lit-html\1/, `createPolicy('${TRUSTED_TYPES_POLICY}'`);
        const edits = LIT_UNUSED.find(([file]) => file.test(path))?.[1];
        if (!edits) return;
        for (const [pattern, replacement] of edits) {
          if (!pattern.test(body)) throw new Error(`${pattern} is not in ${path}`);
          body = body.replace(pattern, replacement);
        }
        return { body };
      },
    },
  ],
};
