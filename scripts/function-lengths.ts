// Function lengths across src-*: every function (declaration, expression, arrow, method,
// accessor, constructor) counted as ESLint's max-lines-per-function counts it, from its first
// line to its last, blank lines and comments included; a nested function counts in its parent
// too. Test files (*.test.ts(x), *.bench.ts) and declaration files are left out.
//   npx tsx scripts/function-lengths.ts [--over 80]   lists the functions over the limit, longest first
// scripts/function-lengths.test.ts holds the counts (lint's max-lines-per-function holds the 150 cap).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const ROOTS = ['src-main', 'src-exchange', 'src-shared', 'src-renderer'];
const SKIP = /\.(test|bench)\.(ts|tsx)$|\.d\.ts$/;

export interface FunctionLength {
  file: string;
  name: string;
  line: number;
  lines: number;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...sourceFiles(p));
    else if (/\.(ts|tsx)$/.test(e.name) && !SKIP.test(e.name)) out.push(p);
  }
  return out;
}

function nameOf(node: ts.Node): string {
  const named = node as { name?: ts.Node };
  if (named.name && ts.isIdentifier(named.name)) return named.name.text;
  if (named.name && (ts.isStringLiteral(named.name) || ts.isPrivateIdentifier(named.name))) return named.name.text;
  const p = node.parent;
  if (p && ts.isVariableDeclaration(p) && ts.isIdentifier(p.name)) return p.name.text;
  if (p && ts.isPropertyAssignment(p)) return p.name.getText();
  if (p && ts.isCallExpression(p)) return `${p.expression.getText().slice(0, 40)}(…)`;
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  return '(anonymous)';
}

/** Every function in one file with its length in lines. */
export function functionLengths(file: string, text: string, rel = file): FunctionLength[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const out: FunctionLength[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && (node as ts.FunctionLikeDeclaration).body) {
      const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const end = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
      out.push({ file: rel, name: nameOf(node), line: start + 1, lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** Every function in src-*, longest first. */
export function measure(root: string): FunctionLength[] {
  const all: FunctionLength[] = [];
  for (const r of ROOTS) {
    for (const f of sourceFiles(path.join(root, r))) {
      all.push(...functionLengths(f, readFileSync(f, 'utf8'), path.relative(root, f).split(path.sep).join('/')));
    }
  }
  return all.sort((a, b) => b.lines - a.lines);
}

/** Source files in src-* over `limit` lines. */
export function longFiles(root: string, limit: number): { file: string; lines: number }[] {
  const out: { file: string; lines: number }[] = [];
  for (const r of ROOTS) {
    for (const f of sourceFiles(path.join(root, r))) {
      const lines = readFileSync(f, 'utf8').split('\n').length - 1;
      if (lines > limit) out.push({ file: path.relative(root, f).split(path.sep).join('/'), lines });
    }
  }
  return out.sort((a, b) => b.lines - a.lines);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const i = process.argv.indexOf('--over');
  const over = i > 0 ? Number(process.argv[i + 1]) : 80;
  const long = measure(root).filter((f) => f.lines > over);
  for (const f of long) console.log(`${String(f.lines).padStart(4)}  ${f.file}:${f.line}  ${f.name}`);
  const files = longFiles(root, 400);
  console.log(`${long.length} functions over ${over} lines (${long.filter((f) => f.lines > 150).length} over 150); ${files.length} files over 400 lines`);
  for (const f of files) console.log(`  ${f.lines}  ${f.file}`);
}
