// Lint enforces the process boundaries: the engine and its non-Electron hosts never import `electron`; the renderer
// never imports Node, `electron` or the engine. Inside the engine, a room imports only the rooms below it
// (ENGINE_LAYERS); docs/architecture.md says what each room is for.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { builtinModules } from 'node:module';
import { ISOLATED_TEST_FILES } from './test/isolated-files.js';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

const noElectron = {
  paths: [{ name: 'electron', message: 'Only electron/main and electron/preload may import electron.' }],
  patterns: [{ group: ['**/electron/main/**', '**/electron/preload/**', '**/main/*', '**/preload/*'], message: 'The engine and hosts never reach into the Electron shell.' }],
};

// The engine's rooms from the bottom up; the single files at electron/engine/*.ts (clock, errors, dispatch, the
// router) sit below them all, engine.ts above them all. A room may import the rooms before it, never one after it.
const ENGINE_LAYERS = ['store', 'secrets', 'matching', 'sheets', 'export', 'api', 'demo', 'rows', 'jobs', 'connections', 'runs', 'refresh', 'watch', 'review', 'projects', 'search', 'facade'];

const noHosts = { group: ['../web/**', '../cli/**', '../../web/**', '../../cli/**', '../../../web/**', '../../../cli/**'], message: 'The engine serves the hosts; it never imports one.' };

const roomPatterns = (rooms) => rooms.flatMap((room) => [`../${room}`, `../${room}/**`, `../../${room}`, `../../${room}/**`, `./${room}`, `./${room}/**`]);

const engineLayers = [
  {
    files: ['electron/engine/*.ts'],
    ignores: ['electron/engine/engine.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        ...noElectron,
        patterns: [...noElectron.patterns, noHosts, { group: [...roomPatterns(ENGINE_LAYERS), './engine'], message: "The engine's single files sit below every room." }],
      }],
    },
  },
  ...ENGINE_LAYERS.map((room, level) => ({
    files: [`electron/engine/${room}/**`],
    rules: {
      'no-restricted-imports': ['error', {
        ...noElectron,
        patterns: [
          ...noElectron.patterns,
          noHosts,
          {
            group: [...roomPatterns(ENGINE_LAYERS.slice(level + 1)), '../engine', '../../engine'],
            message: `${room}/ sits below ${ENGINE_LAYERS.slice(level + 1).join(', ')} and engine.ts (eslint.config.js, ENGINE_LAYERS): move what both need down.`,
          },
        ],
      }],
    },
  })),
];

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
    rules: { 'no-restricted-imports': ['error', noElectron] },
  },
  ...engineLayers,
  // The hosts' layers, bottom up: shared, simulator, engine, web, cli (which starts the web host), main.
  ...[
    ['electron/simulator/**', ['engine', 'web', 'cli'], 'The simulator stands for the service: it knows nothing of the app.'],
    ['electron/web/**', ['cli'], 'The browser host is started by the CLI, never the other way round.'],
  ].map(([files, above, message]) => ({
    files: [files],
    rules: { 'no-restricted-imports': ['error', { ...noElectron, patterns: [...noElectron.patterns, { group: above.flatMap((room) => [`../${room}`, `../${room}/**`]), message }] }] },
  })),
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
    // A test file shares its worker's modules with the files before it (vitest.config.ts): one that mocks a module or
    // changes the process's environment would change theirs, so it is listed in test/isolated-files.js instead.
    files: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    ignores: ISOLATED_TEST_FILES,
    rules: {
      'no-restricted-syntax': ['error',
        { selector: "CallExpression[callee.object.name='vi'][callee.property.name=/^(mock|doMock|stubEnv|stubGlobal|useFakeTimers)$/]", message: 'Mocks and stubs reach the files after this one: list the file in test/isolated-files.js.' },
        { selector: "AssignmentExpression > MemberExpression.left[object.object.name='process'][object.property.name='env']", message: "The environment reaches the files after this one: pass an env to the child, or list the file in test/isolated-files.js." },
        { selector: "UnaryExpression[operator='delete'] > MemberExpression[object.object.name='process'][object.property.name='env']", message: "The environment reaches the files after this one: pass an env to the child, or list the file in test/isolated-files.js." },
      ],
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
