// `npm start`: the desktop window where Electron can run, else the same terminal in a browser.
// Electron needs its downloaded binary and, on Linux, a display. Without either, this builds the
// renderer and starts the web host (same main services, same renderer, 127.0.0.1 only), which
// prints the terminal's URL and opens a browser where one exists. Arguments after `--` go to
// the web host (e.g. `npm start -- --port 8080`).
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { electronBinary, root } from './electron-binary.mjs';

const bin = (name) => path.join(root, 'node_modules', '.bin', process.platform === 'win32' ? `${name}.cmd` : name);
const extra = process.argv.slice(2);

function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

/** Why the desktop window cannot open here, or null when it can. */
function whyNoDesktop() {
  if (process.env.EVENT_TERMINAL_WEB === '1') return 'EVENT_TERMINAL_WEB=1 asks for the browser';
  const e = electronBinary();
  if (!e.ok) return `${e.why}; \`npm run install:electron\` fetches it`;
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) return 'there is no display (DISPLAY and WAYLAND_DISPLAY are unset)';
  return null;
}

/** The child stops when we are asked to (its own orderly stop), and is killed if we exit first. */
function stopWithUs(child) {
  const forward = (sig) => child.kill(sig);
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, forward);
  process.on('exit', () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

const why = whyNoDesktop();
if (why === null) {
  run(bin('electron-vite'), ['build']);
  const child = spawn(electronBinary().path, ['.', ...extra], { cwd: root, stdio: 'inherit' });
  stopWithUs(child);
} else {
  console.log(`start: not the desktop window because ${why}: serving the terminal in a browser instead.`);
  run(bin('vite'), ['build', '--config', 'src-renderer/vite.config.ts', '--logLevel', 'warn']);
  // the IPC channel: the host (and its exchange) exit when this script dies, SIGKILL included
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'src-main', 'host', 'cli.ts'), '--open', ...extra], { cwd: root, stdio: ['inherit', 'inherit', 'inherit', 'ipc'] });
  stopWithUs(child);
}
