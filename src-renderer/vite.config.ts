// Builds the renderer into out/renderer. The page runs under a strict CSP (no inline scripts,
// no eval, no remote fonts), so nothing here may inject inline code.
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const root = import.meta.dirname;

export default defineConfig({
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
});
