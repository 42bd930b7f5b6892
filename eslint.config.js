// ESLint: TypeScript everywhere; Lit, lit-a11y and web-component rules on the widgets.
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
    files: ['widgets/**/*.ts'],
    ...lit.configs['flat/recommended'],
  },
  {
    files: ['widgets/**/*.ts'],
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
  {
    // Widgets and the demo's pages render data as text: no unsafeHTML, no innerHTML.
    files: ['widgets/**/*.ts', 'loader/**/*.ts', 'demo/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['lit/directives/unsafe-*'], message: 'Render data as text.' }] }],
      'no-restricted-properties': [
        'error',
        { property: 'innerHTML', message: 'Render data as text (textContent or a Lit template).' },
        { property: 'outerHTML', message: 'Render data as text.' },
      ],
    },
  },
);
