// Import boundaries are the architecture: src-shared is pure, only src-main/electron
// touches electron, the renderer never reaches into main or the exchange.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import { builtinModules } from 'node:module';
import { readdirSync } from 'node:fs';
import reactHooks from 'eslint-plugin-react-hooks';
import importX from 'eslint-plugin-import-x';
import noCycleWithTypes from './scripts/eslint-rules/no-cycle-with-types.mjs';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

const FEATURES = readdirSync(new URL('./src-renderer/features', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

const RENDERER_PATTERNS = [
  { group: ['electron'], message: 'Only src-main/electron imports electron.' },
  { group: ['**/src-main/**', '**/src-exchange/**'], message: 'The renderer talks to main only through TerminalApi.' },
];
const RENDERER_PATHS = () => nodeBuiltins.map((name) => ({ name, message: 'The renderer is sandboxed: no Node API.' }));

// (paths from the repository root; a zone forbids `target` to import `from`)
const R = './src-renderer';
const SHARED_FLOOR = ['services', 'ui', 'hooks'].map((d) => `${R}/${d}`);
const NOT_TESTS = (dir) => [`${dir}/**/!(*.test).ts`, `${dir}/**/!(*.test).tsx`];
const RENDERER_FLOORS = [
  { target: `${R}/features`, from: `${R}/app`, message: 'Floors: features never import app/ (app composes features).' },
  { target: [...SHARED_FLOOR, `${R}/stores`, `${R}/lib`], from: `${R}/features`, message: 'Floors: shared code (services, ui, hooks, stores, lib) never imports a feature: move what both need down a floor.' },
  { target: [...SHARED_FLOOR, `${R}/stores`, `${R}/lib`], from: `${R}/app`, message: 'Floors: shared code never imports app/.' },
  { target: [`${R}/stores`, `${R}/lib`], from: SHARED_FLOOR, message: 'Floors: stores/ and lib/ sit below services, ui and hooks.' },
  { target: `${R}/lib`, from: `${R}/stores`, message: 'Floors: lib/ is the lowest floor (plain functions, the bridge): it never imports a store.' },
  { target: NOT_TESTS(R), from: `${R}/test`, message: 'src-renderer/test/ is test support: production code never imports it.' },
];

// Floors: src-shared <- src-exchange | src-main <- src-renderer; test-support/ and integration/
// sit above the processes they drive and production code never imports them.
const TESTS = ['**/*.test.ts', '**/*.test.tsx', '**/*.bench.ts'];
// Test support has a room of its own (test-support/exchange, test-support/main) and the tests that
// drive the exchange with the terminal's client live in integration/: neither ships in a bundle.
const NO_TEST_SUPPORT = { group: ['**/test-support/**', '**/integration/**'], message: 'Production code never imports test support or integration tests.' };
const MAIN_NO_ELECTRON = { group: ['electron'], message: 'Only src-main/electron imports electron; keep main logic plain Node.' };
// Main runs the exchange's replay engine and snapshot worker in-process (backtests, the recorder);
// everything else of the exchange it knows only over the wire.
const MAIN_PATTERNS = [
  MAIN_NO_ELECTRON,
  { group: ['**/src-renderer/**'], message: 'Main never imports the renderer.' },
  {
    regex: '(^|/)src-exchange/(?!replay/|engine/fees$|core/snapshot-worker$)',
    message: 'Main knows the exchange over the wire: what both sides need (formats, schemas) lives in src-shared.',
  },
  NO_TEST_SUPPORT,
];
const MAIN_LOWER_FLOORS = ['base', 'api', 'stream', 'session', 'market', 'risk', 'vault', 'audit', 'ipc', 'embedded', 'alerts', 'conditional'];
const EXCHANGE_PATTERNS = [
  { group: ['electron'], message: 'The exchange is plain Node.' },
  { group: ['**/src-main/**', '**/src-renderer/**'], message: 'The exchange knows nothing of the terminal.' },
  NO_TEST_SUPPORT,
];

const restrict = (patterns, paths = []) => ({
  'no-restricted-imports': ['error', { paths, patterns }],
});

export default tseslint.config(
  // (.stryker-tmp: the sandboxes a stopped mutation run leaves behind, a copy of the whole tree)
  { ignores: ['node_modules', 'out', 'dist', 'release', 'e2e/artifacts', 'test-results', 'reports', '.stryker-tmp', '**/*.d.ts', '**/*.d.mts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    // No import circles, type imports included: a module graph with a cycle has an order that only
    // happens to work, and a circle closed by `import type` still ties two floors together.
    // (import-x/no-cycle skips type imports with no option to count them; see the rule's header.)
    files: ['**/*.ts', '**/*.tsx'],
    plugins: { local: { rules: { 'no-cycle-with-types': noCycleWithTypes } } },
    rules: { 'local/no-cycle-with-types': 'error' },
  },
  {
    files: ['src-renderer/**/*.ts', 'src-renderer/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    // Type-aware: a promise nobody awaits, returns or marks `void` is an error nobody sees.
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': ['error', { ignoreVoid: true }],
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
    },
  },
  {
    files: ['src-shared/**'],
    rules: restrict(
      [
        { group: ['electron', 'react', 'react-dom', 'ws', 'fastify'], message: 'src-shared is pure: no runtime, UI or transport imports.' },
        { group: ['**/src-main/**', '**/src-renderer/**', '**/src-exchange/**'], message: 'src-shared imports nothing outside itself.' },
        NO_TEST_SUPPORT,
      ],
      nodeBuiltins.map((name) => ({ name, message: 'src-shared imports no Node API.' })),
    ),
  },
  {
    files: ['src-renderer/**'],
    rules: restrict(RENDERER_PATTERNS, RENDERER_PATHS()),
  },
  {
    // The wire and endpoint modules hold zod schemas main runs: the renderer takes only their types.
    files: ['src-renderer/**/*.ts', 'src-renderer/**/*.tsx'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/src-shared/wire/*', '**/src-shared/endpoints', '**/src-shared/endpoints/*'], allowTypeImports: true, message: 'The renderer takes only types from the wire and endpoint modules (their schemas run in main).' },
          ],
        },
      ],
    },
  },
  {
    // Renderer floors, one direction (as bulletproof-react): app -> features -> shared, where the
    // shared floor is services/ui/hooks over stores over lib. Type imports count: a floor that
    // needs a type from above is a type that lives on the wrong floor. Test support (test/) is
    // for tests only.
    files: ['src-renderer/**/*.ts', 'src-renderer/**/*.tsx'],
    plugins: { 'import-x': importX },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: RENDERER_FLOORS }],
    },
  },
  // Feature zones: a feature folder never imports another; they meet in app/, stores/,
  // services/, hooks/, ui/ and lib/.
  ...FEATURES.map((f) => ({
    files: [`src-renderer/features/${f}/**/*.ts`, `src-renderer/features/${f}/**/*.tsx`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...RENDERER_PATTERNS,
            {
              group: FEATURES.filter((o) => o !== f).flatMap((o) => [`../${o}/**`, `../../${o}/**`, `../../../${o}/**`, `**/features/${o}/**`]),
              message: `Features never import each other (${f} is a feature): move what they share to ui/, hooks/, stores/ or services/.`,
            },
          ],
          paths: RENDERER_PATHS(),
        },
      ],
    },
  })),
  {
    files: ['src-main/**'],
    ignores: ['src-main/electron/**', 'src-main/chaos/**', ...TESTS],
    rules: restrict(MAIN_PATTERNS),
  },
  {
    files: ['src-main/electron/**'],
    ignores: TESTS,
    rules: restrict(MAIN_PATTERNS.filter((p) => p !== MAIN_NO_ELECTRON)),
  },
  {
    // Main's lower floors never reach up into app/ (the services that compose them); what they
    // share with app/ (errors, JSON files) lives in base/.
    files: MAIN_LOWER_FLOORS.map((d) => `src-main/${d}/**`),
    ignores: TESTS,
    rules: restrict([...MAIN_PATTERNS, { regex: '^(\\.\\./)+(src-main/)?app(/|$)', message: `Main's lower floors (${MAIN_LOWER_FLOORS.join(', ')}) never import app/: move what they share down to base/.` }]),
  },
  {
    // base/ is main's floor: it imports nothing of main.
    files: ['src-main/base/**'],
    ignores: TESTS,
    rules: restrict([...MAIN_PATTERNS, { regex: '^\\.\\./(?!\\.\\./src-shared/)', message: "base/ is main's bottom floor: it imports only src-shared and libraries." }]),
  },
  {
    // Main's tests may start a real exchange (its server, its key tools) and use the test support;
    // so may the chaos runs (npm run chaos: a test tool, not shipped).
    files: [...TESTS.map((t) => `src-main/${t}`), 'src-main/chaos/**'],
    ignores: ['src-main/electron/**'],
    rules: restrict([
      { group: ['electron'], message: 'Only src-main/electron imports electron; keep main logic plain Node.' },
      { group: ['**/src-renderer/**'], message: 'Main never imports the renderer.' },
    ]),
  },
  {
    files: ['src-exchange/**'],
    ignores: TESTS,
    rules: restrict(EXCHANGE_PATTERNS),
  },
  {
    // The exchange's own tests may use the test support, but still nothing of the terminal.
    files: TESTS.map((t) => `src-exchange/${t}`),
    rules: restrict([
      { group: ['electron'], message: 'The exchange is plain Node.' },
      { group: ['**/src-main/**', '**/src-renderer/**'], message: 'The exchange knows nothing of the terminal: a test that drives it with the terminal client belongs in integration/.' },
    ]),
  },
  {
    // Test support and the cross-room integration tests sit above both processes: they drive the
    // real exchange with the terminal's own client. Nothing imports the renderer or electron.
    files: ['test-support/**', 'integration/**'],
    rules: restrict([
      { group: ['electron'], message: 'Tests and their support are plain Node.' },
      { group: ['**/src-renderer/**'], message: 'Renderer tests live beside the renderer.' },
    ]),
  },
);
