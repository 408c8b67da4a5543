import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src-*/**/*.test.ts', 'src-*/**/*.test.tsx'],
    environment: 'node',
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 180_000,
    reporters: ['default'],
  },
});
