// Lint rules, including the layering the architecture asks for: the
// renderer sees only the API contract; the engine never sees Electron or
// React; pure engine code stays free of Node built-ins where it can.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: [
      'out/**',
      'node_modules/**',
      'target/**',
      'resources/**',
      'test-results/**',
      'playwright-report/**',
      'crates/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src-renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['node:*', 'electron', 'electron/*'],
              message: 'The renderer is sandboxed: no Node or Electron.',
            },
            {
              group: ['**/src-worker/*', '!**/src-worker/contract', '**/src-main/*'],
              message: 'The renderer knows only the API contract (src-worker/contract).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src-worker/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['electron', 'electron/*', 'react', 'react-dom', 'react/*'],
              message: 'The engine knows nothing of Electron or React.',
            },
            {
              group: ['**/src-main/*', '**/src-renderer/*'],
              message: 'Dependencies point toward the engine, never out of it.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src-worker/contract/**/*.ts'],
    ignores: ['src-worker/contract/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!zod$|\\./)',
              message: 'The contract imports nothing but itself and zod.',
            },
          ],
        },
      ],
    },
  },
  {
    files: [
      '**/*.test.ts',
      '**/*.test.tsx',
      'e2e/**/*.ts',
      'bench/**/*.{ts,mjs}',
      'scripts/**/*.mjs',
    ],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
