// Import boundaries are the architecture: src-shared is pure, only src-main/electron
// touches electron, the renderer never reaches into main or the exchange.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import { builtinModules } from 'node:module';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

const restrict = (patterns, paths = []) => ({
  'no-restricted-imports': ['error', { paths, patterns }],
});

export default tseslint.config(
  { ignores: ['node_modules', 'out', 'dist', 'release', 'e2e/artifacts', 'test-results', '**/*.d.ts', '**/*.d.mts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-floating-promises': 'off',
      'no-console': 'off',
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
    rules: restrict(
      [
        { group: ['electron'], message: 'Only src-main/electron imports electron.' },
        { group: ['**/src-main/**', '**/src-exchange/**'], message: 'The renderer talks to main only through TerminalApi.' },
      ],
      nodeBuiltins.map((name) => ({ name, message: 'The renderer is sandboxed: no Node API.' })),
    ),
  },
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
