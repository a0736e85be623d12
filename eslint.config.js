// Lint rules. The one that matters most: src/core stays pure (no React, Dexie, WebLLM, DOM),
// so it runs unchanged in the worker and in Node.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

// What src/core may not import (reused by stricter blocks below, since a later block's rule replaces it).
const corePatterns = [
  { group: ['react', 'react-dom', 'react/*', 'react-dom/*'], message: 'src/core is pure: no React.' },
  { group: ['dexie', 'dexie-*'], message: 'src/core is pure: no Dexie.' },
  { group: ['@mlc-ai/*', 'comlink', 'zustand', 'zustand/*'], message: 'src/core is pure.' },
  { group: ['**/db/*', '**/ui/*', '**/store/*', '**/worker/*', '**/llm/*'], message: 'src/core imports nothing outside src/core.' },
];

export default tseslint.config(
  { ignores: ['dist', 'dist-e2e*', 'node_modules', 'test-results*', 'playwright-report', 'public', 'bench/out'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/ui/**/*.{ts,tsx}', 'src/store/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    files: ['src/core/**/*.ts'],
    languageOptions: { globals: { ...globals.es2022 } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: corePatterns,
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'window', message: 'src/core runs in Node and the worker: no window.' },
        { name: 'document', message: 'src/core runs in Node and the worker: no document.' },
        { name: 'localStorage', message: 'src/core is pure: no storage.' },
        { name: 'indexedDB', message: 'src/core is pure: no storage.' },
        { name: 'navigator', message: 'src/core is pure: no navigator.' },
      ],
    },
  },
  {
    // Retention probes judge the summarizers and folding: they must not share their extraction.
    files: ['src/core/probes/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [...corePatterns, { group: ['**/summarize/**', '**/folding/**'], message: 'Probes read the journal on their own: no summarize/ or folding/ imports.' }] },
      ],
    },
  },
);
