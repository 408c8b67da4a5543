// Builds the renderer into out/renderer. The page runs under a strict CSP (no inline scripts,
// no eval, no remote fonts), so nothing here may inject inline code.
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const root = import.meta.dirname;

// A build is a production build (React's, lightweight-charts' and the JSX transform's) whatever
// NODE_ENV the shell running it holds: Vite takes it from the environment, and `npm start` run
// under vitest (scripts/start.int.test.ts, NODE_ENV=test) wrote React's development build into
// out/renderer, which the e2e specs and the benches then served. `--mode development` still
// builds a development bundle on purpose. (Set here, before Vite reads it for the build.)
export default defineConfig(({ command, mode }) => {
  if (command === 'build') process.env.NODE_ENV = mode === 'development' ? 'development' : 'production';
  return {
    root,
    base: './',
    plugins: [react()],
    build: {
      outDir: `${root}/../out/renderer`,
      emptyOutDir: true,
      // the polyfill would be an inline script in some setups; every target we ship to has modulepreload
      modulePreload: { polyfill: false },
      sourcemap: false,
      // RENDERER_NO_MINIFY=1 keeps names readable for a CPU profile (bench/renderer.bench.ts BENCH_RENDER_PROF)
      minify: process.env.RENDERER_NO_MINIFY ? false : 'esbuild',
      chunkSizeWarningLimit: 1600,
      target: 'es2022',
    },
    server: { host: '127.0.0.1' },
  };
});
