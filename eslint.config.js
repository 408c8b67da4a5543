// Import boundaries are the architecture: src-shared is pure, only src-main/electron
// touches electron, the renderer never reaches into main or the exchange.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import { builtinModules } from 'node:module';
import { readdirSync } from 'node:fs';
import reactHooks from 'eslint-plugin-react-hooks';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';

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
    // No import circles: a module graph with a cycle has an order that only happens to work.
    files: ['**/*.ts', '**/*.tsx'],
    plugins: { 'import-x': importX },
    settings: { 'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] }, 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] })] },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
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
    ignores: ['src-main/electron/**'],
    rules: restrict([
      { group: ['electron'], message: 'Only src-main/electron imports electron; keep main logic plain Node.' },
      { group: ['**/src-renderer/**'], message: 'Main never imports the renderer.' },
    ]),
  },
  {
    files: ['src-exchange/**'],
    ignores: ['src-exchange/integration/**'],
    rules: restrict([
      { group: ['electron'], message: 'The exchange is plain Node.' },
      { group: ['**/src-main/**', '**/src-renderer/**'], message: 'The exchange knows nothing of the terminal.' },
    ]),
  },
  {
    // Integration tests drive the real exchange with the terminal's own client.
    files: ['src-exchange/integration/**'],
    rules: restrict([{ group: ['electron'], message: 'The exchange is plain Node.' }]),
  },
);
