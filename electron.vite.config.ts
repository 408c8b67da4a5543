// electron-vite builds three bundles without needing the Electron binary:
//   out/main/index.js (the shell) + out/main/exchange.js (the embedded exchange, run as a utility process)
//     + out/main/snapshot-worker-thread.js (the exchange's snapshot worker; unpacked from the asar),
//     + out/main/recorder-store-thread.js (the recorder's DuckDB thread; unpacked too),
//     + out/main/strategy-thread.js (a strategy's or a backtest's worker thread; unpacked too),
//   out/preload/index.cjs (CommonJS: sandboxed preloads cannot load ES modules),
//   out/renderer/ (the React UI).
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export default defineConfig({
  main: {
    // main keeps node_modules external (they ship in the package)
    build: {
      externalizeDeps: true,
      outDir: 'out/main',
      rollupOptions: {
        // the example strategies are read at run time (the Strategies panel offers them)
        plugins: [
          {
            name: 'strategy-examples',
            generateBundle() {
              for (const f of readdirSync('src-main/strategies/examples')) this.emitFile({ type: 'asset', fileName: `examples/${f}`, source: readFileSync(`src-main/strategies/examples/${f}`, 'utf8') });
            },
          },
        ],
        input: {
          index: resolve('src-main/electron/main.ts'),
          exchange: resolve('src-exchange/cli.ts'),
          'snapshot-worker-thread': resolve('src-exchange/core/snapshot-worker-thread.ts'),
          'recorder-store-thread': resolve('src-main/recorder/store-thread.ts'),
          // a strategy's (or a backtest's) worker thread: strategies never run on main's loop
          'strategy-thread': resolve('src-main/strategies/strategy-thread.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      // a sandboxed preload can require only 'electron': bundle everything else into it
      externalizeDeps: false,
      outDir: 'out/preload',
      rollupOptions: {
        input: { index: resolve('src-main/electron/preload.ts') },
        external: ['electron'],
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve('src-renderer'),
    plugins: [react()],
    build: {
      outDir: 'out/renderer',
      rollupOptions: { input: resolve('src-renderer/index.html') },
    },
  },
});
