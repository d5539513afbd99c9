// Lint enforces the process boundaries (guide/style.md item 1): the engine and its non-Electron hosts never
// import `electron`; the renderer never imports Node, `electron` or the engine.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { builtinModules } from 'node:module';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'reports/**', 'test-results/**', 'playwright-report/**', 'bench/tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      'no-constant-condition': ['error', { checkLoops: false }],
    },
  },
  {
    // Plain Node scripts (the bin, the test runner, build helpers).
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly', Buffer: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly' },
    },
  },
  {
    files: ['electron/engine/**', 'electron/simulator/**', 'electron/cli/**', 'electron/web/**', 'shared/**'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [{ name: 'electron', message: 'Only electron/main and electron/preload may import electron.' }],
        patterns: [{ group: ['**/electron/main/**', '**/electron/preload/**', '**/main/*', '**/preload/*'], message: 'The engine and hosts never reach into the Electron shell.' }],
      }],
    },
  },
  {
    files: ['shared/**'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [{ name: 'electron', message: 'shared/ is plain data and schemas.' }, ...nodeBuiltins.map((name) => ({ name, message: 'shared/ runs in the renderer too: no Node built-ins.' }))],
        patterns: [{ group: ['**/electron/**'], message: 'shared/ never imports the engine or the shell.' }],
      }],
    },
  },
  {
    files: ['renderer/**'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': ['error', {
        paths: [
          { name: 'electron', message: 'The renderer talks to the engine only through window.matchdesk.' },
          ...nodeBuiltins.map((name) => ({ name, message: 'The renderer is sandboxed: no Node built-ins.' })),
        ],
        patterns: [{ group: ['**/electron/**', '**/engine/**'], message: 'The renderer never imports the engine or the shell; use the contract.' }],
      }],
    },
  },
);
