// `npm run electronegativity`: Doyensec's Electronegativity (fetched by npx from the npm
// registry; not a dependency: it pins eslint 7 and TypeScript 4.2) over the shell's source: the
// Electron main process and the renderer's pages (src-main, src-renderer, tests left out), for
// the Electron version package.json names. Every finding of MEDIUM severity or higher must be
// listed below with why it is not a problem (the README's Security section carries the same
// list); anything else fails the run. Outside npm test: it needs the registry and ~20 s.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const TOOL = '@doyensec/electronegativity@1.10.3';

/** `CHECK file` -> why the finding is not a problem here. */
export const EXPLAINED = {
  'CONTEXT_ISOLATION_JS_CHECK src-main/electron/main.ts':
    'the window options come from mainWindowOptions() -> secureWebPreferences() in security.ts (contextIsolation: true), which the tool cannot follow; security-checklist.test.ts asserts it',
  'SANDBOX_JS_CHECK src-main/electron/main.ts':
    'same window options: sandbox: true in secureWebPreferences(), asserted by security-checklist.test.ts',
  'AUXCLICK_JS_CHECK src-main/electron/main.ts':
    'a middle click opens a window only through setWindowOpenHandler, which allows our own popout page alone and denies every other URL (windowOpenDecision, security.test.ts)',
  'OPEN_EXTERNAL_JS_CHECK src-main/electron/main.ts':
    'shell.openExternal is reached only for URLs windowOpenDecision calls external: https, default port, no credentials, an exact host of EXTERNAL_HOSTS (the exchange\'s own sites; security.test.ts)',
  'CONTEXT_ISOLATION_JS_CHECK src-main/electron/passphrase-window.ts':
    'the passphrase window\'s options come from passphraseWindowOptions() -> secureWebPreferences() (contextIsolation: true) with JavaScript off and no preload; security-checklist.test.ts items 3 and 20',
  'SANDBOX_JS_CHECK src-main/electron/passphrase-window.ts':
    'same options: sandbox: true from secureWebPreferences(); security-checklist.test.ts item 4',
  'AUXCLICK_JS_CHECK src-main/electron/passphrase-window.ts':
    'the passphrase page has no links and runs no script; every window, this one included, gets the setWindowOpenHandler that denies all but our popout page',
};

const SEVERE = new Set(['MEDIUM', 'HIGH', 'CRITICAL']);

/** Rows of the tool's CSV report (quoted fields may hold commas). */
function parseCsv(text) {
  const rows = [];
  for (const line of text.split('\n').slice(1)) {
    if (!line.trim()) continue;
    const fields = [];
    let cur = '';
    let quoted = false;
    for (let i = 0; i < line.length; i++) {
      const c = line[i];
      if (c === '"') {
        if (quoted && line[i + 1] === '"') {
          cur += '"';
          i++;
        } else quoted = !quoted;
      } else if (c === ',' && !quoted) {
        fields.push(cur.trim());
        cur = '';
      } else cur += c;
    }
    fields.push(cur.trim());
    const [issue, severity, confidence, file, location] = fields;
    rows.push({ issue, severity, confidence, file, location });
  }
  return rows;
}

function main() {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const electron = String(pkg.devDependencies?.electron ?? pkg.dependencies?.electron ?? '').replace(/^[^\d]*/, '');
  if (!electron) throw new Error('package.json names no electron version');
  const stage = mkdtempSync(path.join(tmpdir(), 'electronegativity-'));
  try {
    cpSync(path.join(root, 'package.json'), path.join(stage, 'package.json'));
    for (const dir of ['src-main', 'src-renderer']) {
      cpSync(path.join(root, dir), path.join(stage, dir), { recursive: true, filter: (src) => !/\.test\.tsx?$/.test(src) && !src.includes('node_modules') });
    }
    const report = path.join(stage, 'report.csv');
    const run = spawnSync('npx', ['--yes', TOOL, '-i', stage, '-e', electron, '-r', '-v', 'false', '-o', report], { cwd: stage, encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`electronegativity failed (${run.status}):\n${run.stderr}\n${run.stdout}`);
    const rows = parseCsv(readFileSync(report, 'utf8'));
    console.log(`electronegativity ${TOOL.split('@').pop()} over src-main and src-renderer, Electron ${electron}: ${rows.length} findings`);
    let unexplained = 0;
    for (const r of rows) {
      const why = EXPLAINED[`${r.issue} ${r.file}`];
      const severe = SEVERE.has(r.severity);
      if (severe && !why) unexplained++;
      console.log(`  ${severe ? (why ? 'explained  ' : 'UNEXPLAINED') : 'low        '} ${r.severity.padEnd(6)} ${r.issue} ${r.file}:${r.location}${why ? `\n      ${why}` : ''}`);
    }
    if (unexplained) {
      console.log(`${unexplained} finding(s) of medium severity or higher are not explained: fix them or explain them in scripts/electronegativity.mjs and the README`);
      process.exit(1);
    }
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

main();
