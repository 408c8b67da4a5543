// For the README recipe tests: copies of real source files under the git-ignored test-results/
// folder, with their relative imports re-pointed (a copied module imports the copy, any other
// module the real file), and the compiler's view of such copies. Tests only.
import { cpSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { expect } from 'vitest';

export const ROOT = process.cwd();

const COMPILER_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
  jsx: ts.JsxEmit.ReactJSX,
  strict: true,
  noUncheckedIndexedAccess: true,
  esModuleInterop: true,
  resolveJsonModule: true,
  skipLibCheck: true,
  noEmit: true,
  types: ['node'],
};
/** parsed source files by path, reused while the file's text is unchanged */
const parsed = new Map<string, ts.SourceFile>();
const slash = (p: string) => p.split('\\').join('/');
/** a file's absolute path with forward slashes: how copies are told apart */
const absolute = (fileName: string) => slash(resolve(fileName));

/** The README section that starts with `heading`, up to the next `## `. */
export function readmeSection(heading: string): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf(heading);
  expect(start, `README has a "${heading}" section`).toBeGreaterThanOrEqual(0);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
}

/** The repository paths a recipe names in backticks (src-…/….ts or .tsx, no placeholders). */
export function namedFiles(section: string): Set<string> {
  return new Set([...section.matchAll(/`(src-[a-z]+\/[^`<>]+\.tsx?)`/g)].map((m) => m[1]!));
}

/** Every non-test .ts/.tsx file under the given folders (repository-relative, forward slashes). */
export function sourceFiles(...dirs: string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)) out.push(slash(relative(ROOT, p)));
    }
  };
  for (const d of dirs) walk(join(ROOT, d));
  return out;
}

/** Applies each [anchor, replacement]; fails naming the anchor if the file no longer has it. */
export function applyEdits(text: string, edits: [RegExp, string][], file: string): string {
  let out = text;
  for (const [anchor, replacement] of edits) {
    expect(anchor.test(out), `${file} still has the place the recipe edits: ${anchor.source}`).toBe(true);
    out = out.replace(anchor, replacement);
  }
  return out;
}

/**
 * A tree of copies at `root`: `copied` (repository-relative files or folders) are copied as they are,
 * and every relative import in a copied file that leads outside the copied set is re-pointed at
 * the real file by absolute path.
 */
export class CopyTree {
  private readonly copied: string[];
  /** the copied files written since the copy was made (a recipe's edits), by absolute path */
  private readonly edited = new Set<string>();
  private copying = true;
  constructor(
    readonly root: string,
    copied: string[],
  ) {
    this.copied = copied.map(slash);
    for (const c of this.copied) {
      mkdirSync(dirname(join(root, c)), { recursive: true });
      // test files stay out of a copied folder; one named on its own is copied (a recipe edits it)
      cpSync(join(ROOT, c), join(root, c), { recursive: true, filter: (s) => s === join(ROOT, c) || !/\.test\.tsx?$/.test(s) });
    }
    for (const c of this.copied) {
      const files = /\.tsx?$/.test(c) ? [c] : sourceFiles(c);
      for (const f of files) this.write(f, this.read(f));
    }
    this.copying = false;
  }
  private inCopy(rel: string): boolean {
    return this.copied.some((c) => rel === c || rel.startsWith(`${c}/`) || rel.replace(/\.tsx?$/, '') === c.replace(/\.tsx?$/, ''));
  }
  path(rel: string): string {
    return join(this.root, rel);
  }
  read(rel: string): string {
    return readFileSync(this.path(rel), 'utf8');
  }
  /** Writes a copied file, re-pointing its imports that leave the copied set. */
  write(rel: string, text: string): void {
    const realDir = dirname(join(ROOT, rel));
    const out = text.replace(/(from\s+|import\()'(\.{1,2}\/[^']+)'/g, (whole, pre: string, spec: string) => {
      const target = slash(relative(ROOT, resolve(realDir, spec)));
      if (this.inCopy(target) || this.copied.some((c) => target.startsWith(`${c}/`))) return whole;
      return `${pre}'${slash(join(ROOT, target))}'`;
    });
    writeFileSync(this.path(rel), out);
    if (!this.copying) this.edited.add(absolute(this.path(rel)));
  }
  /**
   * The compiler's errors in the copied files (strict, as tsconfig.json), with `rels` as the roots.
   * Only the copies that an edit can reach are checked: the edited files and every copy that
   * imports one, directly or through other copies. Any other copy has the text of its real file
   * and imports only files equal to the real ones, so its errors are the real file's, which the
   * project's typecheck finds (checking those too, for every call, was most of a recipe test's
   * time: the first call 12.8 s, then 8.7 s, for the risk limit's 46 copies, of which the edit
   * reaches a third). Parsed files are shared between calls while their text is unchanged.
   */
  typeErrors(...rels: string[]): string[] {
    const host = ts.createCompilerHost(COMPILER_OPTIONS);
    const read = host.getSourceFile.bind(host);
    host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
      const text = host.readFile(fileName);
      const hit = parsed.get(fileName);
      if (hit && text !== undefined && hit.text === text) return hit;
      const sf = read(fileName, languageVersion, onError, shouldCreate);
      if (sf) parsed.set(fileName, sf);
      return sf;
    };
    const program = ts.createProgram(
      rels.map((r) => this.path(r)),
      COMPILER_OPTIONS,
      host,
    );
    const root = absolute(this.root) + '/';
    const mine = program.getSourceFiles().filter((sf) => absolute(sf.fileName).startsWith(root));
    expect(mine.length, 'the roots are in the copy').toBeGreaterThanOrEqual(rels.length);
    const reached = this.reachedByEdits(mine, host);
    expect(reached.size, 'a recipe test checks after an edit').toBeGreaterThan(0);
    const checked = mine.filter((sf) => reached.has(absolute(sf.fileName)));
    const diagnostics = [
      ...program.getOptionsDiagnostics(),
      ...program.getGlobalDiagnostics(),
      ...checked.flatMap((sf) => [...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)]),
    ];
    return diagnostics.map((d) => `${d.file ? slash(relative(this.root, d.file.fileName)) : ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
  }

  /** The copies (absolute paths) that are edited or import an edited copy, directly or through other copies. */
  private reachedByEdits(copies: readonly ts.SourceFile[], host: ts.CompilerHost): Set<string> {
    const importers = new Map<string, string[]>();
    for (const sf of copies) {
      for (const { fileName: spec } of ts.preProcessFile(sf.text, true, true).importedFiles) {
        const target = ts.resolveModuleName(spec, sf.fileName, COMPILER_OPTIONS, host).resolvedModule?.resolvedFileName;
        if (!target) continue;
        const list = importers.get(absolute(target)) ?? [];
        list.push(absolute(sf.fileName));
        importers.set(absolute(target), list);
      }
    }
    const reached = new Set<string>();
    const visit = (file: string) => {
      if (reached.has(file)) return;
      reached.add(file);
      for (const by of importers.get(file) ?? []) visit(by);
    };
    for (const file of this.edited) visit(file);
    return reached;
  }
}
