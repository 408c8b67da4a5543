// Import boundaries are the architecture: src-shared is pure, only src-main/electron
// touches electron, the renderer never reaches into main or the exchange.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import { builtinModules } from 'node:module';
import { readdirSync } from 'node:fs';
import reactHooks from 'eslint-plugin-react-hooks';
import noCycleWithTypes from './scripts/eslint-rules/no-cycle-with-types.mjs';
import floors from './scripts/eslint-rules/floors.mjs';

// Project rules: local/no-cycle-with-types, local/floors.
const local = { rules: { 'no-cycle-with-types': noCycleWithTypes, floors } };

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

const FEATURES = readdirSync(new URL('./src-renderer/features', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

// Floors, checked by local/floors (scripts/eslint-rules/floors.mjs) on the path an import resolves
// to, for every form: static, `import type`, `export ... from`, dynamic `import()`, `require()`.
// Proved zone by zone in scripts/eslint-floors.test.ts. Paths from the repository root; a zone
// forbids its `target` (minus `except`; `tests: false` skips test files) to import `from`
// (minus `fromExcept`) or the bare `packages`.
const R = 'src-renderer';
const M = 'src-main';
const SHARED_FLOOR = ['services', 'ui', 'hooks'].map((d) => `${R}/${d}`);
const TEST_SUPPORT = ['test-support', 'integration'];
const NO_TEST_SUPPORT = 'Floors: production code never imports test support (test-support/, integration/).';
// Main runs three pieces of the exchange in-process (replay's tape and books and the fee schedule
// for backtests, the worker-thread spawner for the recorder), all through one declared entry,
// src-exchange/for-main.ts; everything else of the exchange it knows only over the wire.
const MAIN_RUNS_OF_EXCHANGE = ['src-exchange/for-main'];
export const MAIN_LOWER_FLOORS = ['base', 'api', 'stream', 'session', 'market', 'risk', 'vault', 'audit', 'ipc', 'embedded', 'alerts', 'conditional', 'recorder', 'fix', 'strategies'];

const RENDERER_FLOORS = [
  { target: R, packages: ['electron'], message: 'Floors: only src-main/electron imports electron.' },
  { target: R, packages: nodeBuiltins, message: 'Floors: the renderer is sandboxed: no Node API.' },
  { target: R, from: ['src-main', 'src-exchange'], message: 'Floors: the renderer talks to main only through TerminalApi (never src-main/ or src-exchange/).' },
  { target: `${R}/features`, from: `${R}/app`, message: 'Floors: features never import app/ (app composes features).' },
  // Feature zones: a feature folder never imports another; they meet in app/ and the shared floors.
  ...FEATURES.map((f) => ({
    target: `${R}/features/${f}`,
    from: `${R}/features`,
    fromExcept: `${R}/features/${f}`,
    message: `Floors: features never import each other (${f} is a feature): move what they share to ui/, hooks/, stores/ or services/.`,
  })),
  { target: [...SHARED_FLOOR, `${R}/stores`, `${R}/lib`], from: `${R}/features`, message: 'Floors: shared code (services, ui, hooks, stores, lib) never imports a feature: move what both need down a floor.' },
  { target: [...SHARED_FLOOR, `${R}/stores`, `${R}/lib`], from: `${R}/app`, message: 'Floors: shared code (services, ui, hooks, stores, lib) never imports app/.' },
  { target: [`${R}/stores`, `${R}/lib`], from: SHARED_FLOOR, message: 'Floors: stores/ and lib/ sit below services, ui and hooks.' },
  { target: `${R}/lib`, from: `${R}/stores`, message: 'Floors: lib/ is the lowest floor (plain functions, the bridge): it never imports a store.' },
  { target: R, except: `${R}/test`, tests: false, from: `${R}/test`, message: 'Floors: src-renderer/test/ is test support: production code never imports it.' },
  { target: R, tests: false, from: TEST_SUPPORT, message: NO_TEST_SUPPORT },
];

const SHARED_FLOORS = [
  {
    target: 'src-shared',
    packages: ['electron', 'react', 'react-dom', 'ws', 'fastify', ...nodeBuiltins],
    message: 'Floors: src-shared is pure: no Node API, Electron, UI (DOM) or transport imports.',
  },
  { target: 'src-shared', from: ['src-main', 'src-renderer', 'src-exchange'], message: 'Floors: src-shared imports nothing outside itself.' },
  { target: 'src-shared', from: TEST_SUPPORT, message: NO_TEST_SUPPORT },
];

// Floors: src-shared <- src-exchange | src-main <- src-renderer; test-support/ and integration/
// sit above the processes they drive and production code never imports them. chaos/ (npm run
// chaos) is a test tool, never bundled: it may start a real exchange and use test support like
// main's tests do, and production main never imports it.
const MAIN_FLOORS = [
  { target: M, except: `${M}/electron`, packages: ['electron'], message: 'Floors: only src-main/electron imports electron; keep main logic plain Node.' },
  { target: M, from: R, message: 'Floors: main never imports the renderer.' },
  {
    target: M, except: `${M}/chaos`, tests: false, from: 'src-exchange', fromExcept: MAIN_RUNS_OF_EXCHANGE,
    message: `Floors: main knows the exchange over the wire (in-process only through ${MAIN_RUNS_OF_EXCHANGE.join(', ')}.ts, the one declared entry): what both sides need lives in src-shared.`,
  },
  { target: M, except: `${M}/chaos`, tests: false, from: TEST_SUPPORT, message: NO_TEST_SUPPORT },
  { target: M, except: `${M}/chaos`, tests: false, from: `${M}/chaos`, message: 'Floors: production main never imports chaos/ (a test tool).' },
  {
    target: MAIN_LOWER_FLOORS.map((d) => `${M}/${d}`), tests: false, from: `${M}/app`,
    message: `Floors: main's lower floors (${MAIN_LOWER_FLOORS.join(', ')}) never import app/: move what they share down to base/ or their own floor.`,
  },
  { target: `${M}/base`, tests: false, from: M, fromExcept: `${M}/base`, message: "Floors: base/ is main's bottom floor: it imports only src-shared and libraries." },
];

// The exchange's own floors: engine <- journal, state <- core <- the doors (http + handlers +
// auth, ws, fix, sim, replay) <- the composition (server, bootstrap, server-types, provision,
// cli, fuzz/). A lower floor never imports a higher one; the doors meet in core/services.ts (the
// services, `run`, the rejection's protocol error) and core/errors.ts, never in each other.
// Tests may drive their floor with a higher one's helpers (a catalog test seeds with sim/).
const X = 'src-exchange';
const X_DOORS = ['http', 'handlers', 'auth', 'ws', 'fix', 'sim', 'replay'].map((d) => `${X}/${d}`);
const X_COMPOSITION = ['server', 'bootstrap', 'provision', 'cli', 'fuzz'].map((d) => `${X}/${d}`);
const X_FLOOR_MESSAGE = 'Floors: src-exchange is engine <- journal, state <- core <- http/handlers/auth, ws, fix, sim, replay <- server/bootstrap/cli';
const EXCHANGE_INNER_FLOORS = [
  { target: `${X}/engine`, tests: false, from: X, fromExcept: `${X}/engine`, message: `${X_FLOOR_MESSAGE}: engine/ is the bottom floor and imports nothing else of the exchange.` },
  { target: `${X}/journal`, tests: false, from: X, fromExcept: [`${X}/engine`, `${X}/journal`], message: `${X_FLOOR_MESSAGE}: journal/ sits on engine/ only.` },
  { target: `${X}/state`, tests: false, from: X, fromExcept: [`${X}/engine`, `${X}/state`], message: `${X_FLOOR_MESSAGE}: state/ sits on engine/ only (the domain contract is state/domain.ts).` },
  { target: `${X}/core`, tests: false, from: X, fromExcept: [`${X}/engine`, `${X}/journal`, `${X}/state`, `${X}/core`], message: `${X_FLOOR_MESSAGE}: core/ never imports a door or the composition (what the doors share lives in core/services.ts).` },
  { target: X, except: `${X}/for-main`, from: `${X}/for-main`, message: `${X_FLOOR_MESSAGE}: for-main.ts is main's entry into the exchange: the exchange never imports it.` },
  { target: X_DOORS, tests: false, from: X_COMPOSITION, message: `${X_FLOOR_MESSAGE}: a door never imports the composition (it plugs in through the types of server-types.ts).` },
  // ws, fix, sim and replay are doors of their own: they never import each other or the REST handlers.
  ...['ws', 'fix', 'sim', 'replay'].map((d) => ({
    target: `${X}/${d}`, tests: false, from: [`${X}/handlers`, `${X}/ws`, `${X}/fix`, `${X}/sim`, `${X}/replay`], fromExcept: `${X}/${d}`,
    message: `${X_FLOOR_MESSAGE}: the doors (${d} is one) never import each other or handlers/: move what they share to core/.`,
  })),
];

const EXCHANGE_FLOORS = [
  ...EXCHANGE_INNER_FLOORS,
  { target: 'src-exchange', packages: ['electron'], message: 'Floors: the exchange is plain Node (no electron).' },
  { target: 'src-exchange', from: [M, R], message: 'Floors: the exchange knows nothing of the terminal: a test that drives it with the terminal client belongs in integration/.' },
  { target: 'src-exchange', tests: false, from: TEST_SUPPORT, message: NO_TEST_SUPPORT },
];

// Test support and the cross-room integration tests sit above both processes: they drive the
// real exchange with the terminal's own client. Nothing imports the renderer or electron.
const TEST_SUPPORT_FLOORS = [
  { target: TEST_SUPPORT, packages: ['electron'], message: 'Floors: tests and their support are plain Node (no electron).' },
  { target: TEST_SUPPORT, from: R, message: 'Floors: renderer tests live beside the renderer.' },
];


// Globals only one runtime has: src-shared runs in both.
const SHARED_NO_GLOBALS = ['window', 'document', 'navigator', 'localStorage', 'sessionStorage', 'location', 'HTMLElement', 'process', 'Buffer', '__dirname', '__filename', 'global', 'setImmediate'];

export const FLOORS = [...RENDERER_FLOORS, ...SHARED_FLOORS, ...MAIN_FLOORS, ...EXCHANGE_FLOORS, ...TEST_SUPPORT_FLOORS];

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
    plugins: { local },
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
    // Floors (above): one rule, every form of import, by resolved path.
    files: ['**/*.ts', '**/*.tsx', '**/*.mts'],
    plugins: { local },
    rules: { 'local/floors': ['error', { zones: FLOORS }] },
  },
  {
    // Functions a reader can hold in mind: none over 150 lines in src-* (the counted ceiling on
    // those over 80 is scripts/function-lengths.test.ts). The renderer files named there as
    // pending a split are left out until they are split.
    files: ['src-*/**/*.ts', 'src-*/**/*.tsx'],
    ignores: ['**/*.test.ts', '**/*.test.tsx', '**/*.bench.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 150 }] },
  },
  {
    // src-shared is pure: no DOM or Node globals either (the ones a browser-only or Node-only
    // module would reach for; what both runtimes have, such as URL, TextEncoder, crypto, is fine).
    files: ['src-shared/**'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-globals': ['error', ...SHARED_NO_GLOBALS.map((name) => ({ name, message: 'Floors: src-shared is pure: no DOM-only or Node-only globals.' }))],
    },
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
);
