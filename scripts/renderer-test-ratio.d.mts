// Types of renderer-test-ratio.mjs.
export declare function rendererTestRatio(root?: string): { test: number; code: number; ratio: number };
