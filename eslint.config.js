// Lint rules. The one that matters most: src/core stays pure (no React, Dexie, WebLLM, DOM),
// so it runs unchanged in the worker and in Node.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { readFileSync } from 'node:fs';

// Files still to move onto their floor (src/floors.test.ts checks the list only shrinks).
const pending = JSON.parse(readFileSync(new URL('./src/floors-pending.json', import.meta.url), 'utf8'));
const pendingFiles = (floor) => (pending[floor] ?? []).map((file) => `src/${file}`);
// Tests and their helpers may reach across floors.
const testCode = ['src/**/*.test.ts', 'src/**/*.test.tsx', 'src/**/test-*.ts', 'src/**/testing*.ts'];
const floor = (files, patterns, ignores = []) => ({
  files,
  ignores: [...testCode, ...ignores],
  rules: { 'no-restricted-imports': ['error', { patterns }] },
});

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
  // The floors above the core: imports point down (ui -> store -> worker client, db, llm -> core), never back up.
  floor(['src/db/**/*.ts'], [{ group: ['**/worker/*', '**/llm/*', '**/store/*', '**/ui/*'], message: 'src/db imports src/core only: a stored row is typed in db or core, never by a message.' }]),
  floor(['src/llm/**/*.ts'], [{ group: ['**/worker/*', '**/store/*', '**/ui/*'], message: 'src/llm imports src/core (and db types) only.' }]),
  floor(['src/worker/**/*.ts'], [{ group: ['**/ui/*'], message: 'src/worker never imports src/ui.' }]),
  floor(['src/store/**/*.ts'], [
    { group: ['**/ui/*'], message: 'src/store never imports src/ui.' },
    { regex: '/worker/(?!client\\.ts$)(?!.*-client\\.ts$)', allowTypeImports: true, message: 'src/store reaches a worker through its client module only (types from anywhere).' },
  ], pendingFiles('store')),
  floor(['src/ui/**/*.{ts,tsx}'], [
    { group: ['**/core/*', '**/db/*', '**/worker/*', '**/llm/*'], allowTypeImports: true, message: 'src/ui imports src/store and src/ui only (types from anywhere): call a store action, read store state.' },
  ], pendingFiles('ui')),
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
