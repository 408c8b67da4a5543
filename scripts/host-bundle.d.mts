// Types of host-bundle.mjs.
import type { BuildOptions } from 'esbuild';
export declare function hostBundleOptions(root: string, outdir: string, entryPoints: Record<string, string>): BuildOptions;
