// The esbuild options of the web host's bundles (scripts/build-host.mjs builds out/host with
// them), shared with the bench that runs the exchange in its own process as the terminal runs it
// (bench/exchange-http/bundle.ts), so that bench measures the code as it ships. Left in
// node_modules: what loads files of its own at run time (DuckDB's native binding, QuickJS's wasm,
// ws's optional native helpers), and selfsigned, imported only on a first start (a bundled
// CommonJS module imported with import() has only a default export, and tls-cert.ts reads its
// named one). The CommonJS packages inside an ESM bundle get a `require` (the banner) for their
// own requires of Node's modules.
const HOST_EXTERNALS = ['@duckdb/*', 'quickjs-emscripten', '@jitl/*', 'bufferutil', 'utf-8-validate', 'selfsigned', 'electron'];

/**
 * zod re-exports its 60-odd message locales as a namespace (`z.locales`, `z.core.locales`), and a
 * namespace import keeps all of them in an esbuild bundle (366 kB of the 759 kB chunk both
 * processes load, parsed at every start). Nothing here reads another language: English, the one
 * zod configures itself with, stays (`z.locales.en`), and the others are left out.
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) => (/[\\/]zod[\\/]v4[\\/](classic|core|mini)[\\/]/.test(args.importer) ? { path: 'zod-locales-en', namespace: 'zod-english-only', pluginData: args.resolveDir } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, (args) => ({ contents: 'export { default as en } from "../locales/en.js";', resolveDir: args.pluginData, loader: 'js' }));
  },
};

export function hostBundleOptions(root, outdir, entryPoints) {
  return {
    absWorkingDir: root,
    entryPoints,
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: HOST_EXTERNALS,
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    sourcemap: 'linked',
    logLevel: 'warning',
    plugins: [zodEnglishOnly],
  };
}
