// The renderer's test-to-code line ratio: lines of src-renderer/**/*.test.ts(x) plus
// src-renderer/test/** over the lines of every other src-renderer/**/*.ts(x).
// `node scripts/renderer-test-ratio.mjs` prints it; scripts/renderer-test-ratio.test.ts holds it at 0.3 or more.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const lines = (file) => {
  const text = readFileSync(file, 'utf8');
  return text.length === 0 ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
};

function* walk(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* walk(p);
    else yield p;
  }
}

/** { test, code, ratio } for the renderer under `root` (the repository). */
export function rendererTestRatio(root = fileURLToPath(new URL('..', import.meta.url))) {
  const base = join(root, 'src-renderer');
  let test = 0;
  let code = 0;
  for (const file of walk(base)) {
    const rel = relative(base, file).split(sep).join('/');
    const inTestDir = rel.startsWith('test/');
    if (inTestDir) test += lines(file);
    else if (/\.test\.tsx?$/.test(rel)) test += lines(file);
    else if (/\.tsx?$/.test(rel)) code += lines(file);
  }
  return { test, code, ratio: code === 0 ? 0 : test / code };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { test, code, ratio } = rendererTestRatio();
  console.log(`renderer: ${test} test lines / ${code} code lines = ${ratio.toFixed(3)}`);
}
