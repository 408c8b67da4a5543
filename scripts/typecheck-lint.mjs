// `npm test`'s typecheck and lint in one process over ONE TypeScript program: the type-aware lint
// rules (no-floating-promises, no-misused-promises) need the whole project's types, and with their
// own program (typescript-eslint's project service) they built and checked it a second time, which
// was most of the lint's CPU. Here tsconfig.json's program is built once, its diagnostics printed
// as `tsc --noEmit` prints them, then handed to ESLint (parserOptions.programs) for the same
// rules with the same config. `npm run typecheck` and `npm run lint` still run each alone.
// Exit 1 if either found anything (ESLint with --max-warnings 0: a warning fails too).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { ESLint } from 'eslint';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const t0 = Date.now();
const secs = () => ((Date.now() - t0) / 1000).toFixed(1);

const formatHost = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' };
const host = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => console.error(ts.formatDiagnostic(d, formatHost)) };
const config = ts.getParsedCommandLineOfConfigFile(path.join(root, 'tsconfig.json'), {}, host);
if (!config) process.exit(1);
const program = ts.createProgram({ rootNames: config.fileNames, options: config.options, projectReferences: config.projectReferences, configFileParsingDiagnostics: config.errors });
const diagnostics = ts.getPreEmitDiagnostics(program);
const typeErrors = diagnostics.filter((d) => d.category === ts.DiagnosticCategory.Error).length;
if (diagnostics.length) console.log(ts.formatDiagnosticsWithColorAndContext(diagnostics, formatHost));
console.log(`typecheck: ${typeErrors ? `${typeErrors} error(s)` : 'ok'} (${config.fileNames.length} files, ${secs()} s)`);

const eslint = new ESLint({
  cwd: root,
  // the program above instead of a project service: same files (tsconfig.json's), same types
  overrideConfig: [{ files: ['**/*.ts', '**/*.tsx'], languageOptions: { parserOptions: { projectService: false, programs: [program] } } }],
});
const results = await eslint.lintFiles(['.']);
const errors = results.reduce((n, r) => n + r.errorCount + r.fatalErrorCount, 0);
const warnings = results.reduce((n, r) => n + r.warningCount, 0);
const text = await (await eslint.loadFormatter('stylish')).format(results);
if (text) console.log(text);
console.log(`lint: ${errors || warnings ? `${errors} error(s), ${warnings} warning(s) (none allowed)` : 'ok'} (${results.length} files, ${secs()} s in all)`);
process.exitCode = typeErrors || errors || warnings ? 1 : 0;
