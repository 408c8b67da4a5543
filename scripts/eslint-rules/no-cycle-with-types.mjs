// import-x/no-cycle skips `import type` edges (hard-coded: it has no option to count them), so a
// circle closed only by a type import passes it. Types are part of the module graph a reader
// follows: this rule builds the whole project's graph once per lint run (value and type imports,
// re-exports, dynamic imports of literal paths) with TypeScript's own pre-processor, finds the
// strongly connected components (Tarjan) and reports every import whose target is in its file's
// component, naming one circle through it.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const ROOTS = ['src-main', 'src-renderer', 'src-shared', 'src-exchange', 'integration', 'test-support', 'e2e', 'bench', 'scripts'];
const EXTS = ['.ts', '.tsx', '.mts', '/index.ts', '/index.tsx'];
const SKIP = new Set(['node_modules', 'out', 'dist', 'release', '.stryker-tmp']);

function listFiles(dir, out) {
  if (!existsSync(dir)) return out;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(e.name)) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) listFiles(p, out);
    else if (/\.(ts|tsx|mts)$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** The project file a relative specifier names, or null (packages and non-TS files are not nodes). */
export function resolveSpecifier(fromFile, spec) {
  if (!spec.startsWith('.')) return null;
  const base = path.resolve(path.dirname(fromFile), spec);
  const stripped = base.replace(/\.(js|mjs)$/, '');
  for (const cand of [base, stripped]) {
    if (/\.(ts|tsx|mts)$/.test(cand) && existsSync(cand) && statSync(cand).isFile()) return cand;
    for (const e of EXTS) if (existsSync(cand + e)) return cand + e;
  }
  return null;
}

/** Every file's imports (type imports included) as resolved project paths. */
export function buildGraph(root) {
  const graph = new Map();
  for (const r of ROOTS) {
    for (const file of listFiles(path.join(root, r), [])) {
      const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
      const deps = new Set();
      for (const ref of info.importedFiles) {
        const target = resolveSpecifier(file, ref.fileName);
        if (target && target !== file) deps.add(target);
      }
      graph.set(file, deps);
    }
  }
  return graph;
}

/** Tarjan's strongly connected components: file -> component id, for components of two or more. */
export function cyclicComponents(graph) {
  let index = 0;
  const idx = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const comp = new Map();
  let compId = 0;
  for (const start of graph.keys()) {
    if (idx.has(start)) continue;
    // iterative DFS: a deep module graph would overflow the call stack
    const work = [[start, [...(graph.get(start) ?? [])], 0]];
    idx.set(start, index); low.set(start, index); index++; stack.push(start); onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const [v, deps] = frame;
      if (frame[2] < deps.length) {
        const w = deps[frame[2]++];
        if (!graph.has(w)) continue;
        if (!idx.has(w)) {
          idx.set(w, index); low.set(w, index); index++; stack.push(w); onStack.add(w);
          work.push([w, [...graph.get(w)], 0]);
        } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
        continue;
      }
      work.pop();
      if (work.length > 0) { const u = work[work.length - 1][0]; low.set(u, Math.min(low.get(u), low.get(v))); }
      if (low.get(v) === idx.get(v)) {
        const members = [];
        let w;
        do { w = stack.pop(); onStack.delete(w); members.push(w); } while (w !== v);
        if (members.length > 1) { for (const m of members) comp.set(m, compId); compId++; }
      }
    }
  }
  return comp;
}

/** A shortest path from `from` back to `to` inside one component (for the message). */
function pathBack(graph, comp, from, to) {
  const c = comp.get(from);
  const prev = new Map([[from, null]]);
  const queue = [from];
  while (queue.length > 0) {
    const v = queue.shift();
    if (v === to) break;
    for (const w of graph.get(v) ?? []) if (comp.get(w) === c && !prev.has(w)) { prev.set(w, v); queue.push(w); }
  }
  const out = [];
  for (let v = to; v !== null && v !== undefined; v = prev.get(v)) out.unshift(v);
  return out;
}

let cache = null;
function analysis(root) {
  if (!cache || cache.root !== root) {
    const graph = buildGraph(root);
    cache = { root, graph, comp: cyclicComponents(graph) };
  }
  return cache;
}

export default {
  meta: {
    type: 'problem',
    docs: { description: 'No import circles, type imports included.' },
    schema: [],
    messages: { cycle: 'Import circle (type imports count): {{route}}. Move the shared type or value down a floor.' },
  },
  create(context) {
    const file = context.physicalFilename;
    const root = context.cwd;
    const { graph, comp } = analysis(root);
    if (!comp.has(file)) return {};
    const check = (node, source) => {
      if (!source || typeof source.value !== 'string') return;
      const target = resolveSpecifier(file, source.value);
      if (!target || comp.get(target) !== comp.get(file)) return;
      const route = [file, ...pathBack(graph, comp, target, file)].map((p) => path.relative(root, p));
      context.report({ node, messageId: 'cycle', data: { route: route.join(' → ') } });
    };
    return {
      ImportDeclaration: (n) => check(n, n.source),
      ExportNamedDeclaration: (n) => check(n, n.source),
      ExportAllDeclaration: (n) => check(n, n.source),
      ImportExpression: (n) => check(n, n.source),
    };
  },
};
