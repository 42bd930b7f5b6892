// ESLint: TypeScript everywhere; Lit, lit-a11y and web-component rules on the widgets.
import { readdirSync } from 'node:fs';
import lit from 'eslint-plugin-lit';
import litA11y from 'eslint-plugin-lit-a11y';
import wc from 'eslint-plugin-wc';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'data/', 'test-results/', 'playwright-report/', '.cache/'] },
  ...tseslint.configs.recommended,
  {
    files: ['widgets/**/*.ts', 'loader/**/*.ts'],
    ...wc.configs['flat/recommended'],
  },
  {
    files: ['widgets/**/*.ts', 'app/src/**/*.ts'],
    ...lit.configs['flat/recommended'],
  },
  {
    files: ['widgets/**/*.ts', 'app/src/**/*.ts'],
    plugins: { 'lit-a11y': litA11y },
    rules: litA11y.configs.recommended.rules,
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-eval': 'error',
      'no-implied-eval': 'error',
      'no-new-func': 'error',
    },
  },
  ...folderRules(),
  ...featureRules(),
  {
    // Widgets, the demo's pages and the app render data as text: no unsafeHTML, no innerHTML.
    files: ['widgets/**/*.ts', 'loader/**/*.ts', 'demo/**/*.ts', 'app/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { property: 'innerHTML', message: 'Render data as text (textContent or a Lit template).' },
        { property: 'outerHTML', message: 'Render data as text.' },
      ],
    },
  },
);

/**
 * Which folder may import which (docs/architecture.md, "Which folder imports which"): the browser's
 * code (widgets, loader, demo) imports only contract/ and itself, the app contract/ and the demo's
 * shared modules (its snippet writer, check and the widgets' facts), contract/ imports nothing of
 * ours, and the service no browser code. One rule per folder, with the ban on rendering HTML for
 * the browser's code.
 */
function folderRules() {
  const from = (...folders) => ({
    regex: `(^|/)(${folders.join('|')})/`,
    message: 'Across the project’s parts, import only from contract/ (docs/architecture.md, “Which folder imports which”).',
  });
  const unsafe = { group: ['lit/directives/unsafe-*'], message: 'Render data as text.' };
  const rule = (files, patterns, ignores = []) => ({
    files,
    ignores,
    rules: { 'no-restricted-imports': ['error', { patterns }] },
  });
  return [
    rule(['widgets/**/*.ts'], [from('service', 'loader', 'demo'), unsafe], ['**/*.test.ts']),
    rule(['widgets/**/*.test.ts'], [from('service', 'loader', 'demo')]),
    rule(['loader/**/*.ts'], [from('service', 'widgets', 'demo'), unsafe]),
    rule(['demo/**/*.ts'], [from('service', 'loader', 'widgets', 'app'), unsafe], ['demo/site.config.ts']),
    rule(
      ['app/**/*.ts'],
      [
        from('service', 'loader', 'widgets'),
        {
          // Of the demo, its shared modules only: its pages' scripts run where they are loaded.
          regex: '(^|/)demo/(?!src/(snippet|check|facts|showcase)\\.ts$)',
          message: 'The app imports of the demo only its shared modules: src/snippet.ts, check.ts, facts.ts, showcase.ts.',
        },
        unsafe,
      ],
      ['app/site.config.ts'],
    ),
    rule(['contract/**/*.ts'], [from('service', 'widgets', 'loader', 'demo', 'app')]),
    rule(['service/**/*.ts'], [from('widgets', 'loader', 'demo', 'app')]),
    // Rules and data know nothing of HTTP: they return results or throw Refusals (core/refusal.ts).
    rule(
      ['service/core/**/*.ts', 'service/domain/**/*.ts'],
      [from('widgets', 'loader', 'demo', 'app', 'http', 'widget-api', 'features')],
    ),
  ];
}

/**
 * No feature of the service imports another feature (docs/architecture.md): what two features share
 * is a module of its own (service/domain/, service/widget-api/). One rule per feature folder, found
 * on disk so that a new feature has its rule too; each keeps the service's rule above (a file's rule
 * replaces, not adds to, an earlier one).
 */
function featureRules() {
  const features = readdirSync(new URL('./service/features/', import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  const [, { patterns: servicePatterns }] = folderRules().find((r) => r.files.includes('service/**/*.ts')).rules[
    'no-restricted-imports'
  ];
  return features.map((feature) => ({
    files: [`service/features/${feature}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...servicePatterns,
            {
              // `../<other>/…` from a feature's own (flat) folder, or any path through features/<other>/.
              regex: `^\\.\\./(?!\\.\\./|${feature}/)|(^|/)features/(?!${feature}/)`,
              message: `features/${feature} imports no other feature: move what both need to service/domain/ (rules, data) or service/widget-api/ (what widget API routes share).`,
            },
          ],
        },
      ],
    },
  }));
}
