// Runs after `npm ci` / `npm install`: fetches Electron's binary for the desktop window, and
// never fails the install when it cannot. electron's own install script is denied in
// package.json `allowScripts` only because a failed download there fails the whole `npm ci`;
// this step runs that same script and, where the download is impossible (no network to it, or
// ELECTRON_SKIP_BINARY_DOWNLOAD as on CI), says why and moves on: `npm start` then serves the
// same terminal in a browser. `npm run install:electron` retries the download later.
import { downloadElectron, electronBinary } from './electron-binary.mjs';

function main() {
  if (electronBinary().ok) return;
  if (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD) {
    console.log('electron: binary download skipped (ELECTRON_SKIP_BINARY_DOWNLOAD is set); `npm start` will serve the terminal in a browser.');
    return;
  }
  const r = downloadElectron();
  const after = electronBinary();
  if (r.ok && after.ok) {
    console.log(`electron: binary installed at ${after.path}`);
    return;
  }
  console.log(`electron: the binary could not be downloaded (${r.ok ? after.why : r.reason}).`);
  console.log('electron: the install goes on without it: `npm start` will serve the terminal in a browser; `npm run install:electron` retries the download.');
}

try {
  main();
} catch (e) {
  // an install must never fail here: the terminal runs without Electron
  console.log(`electron: could not check the binary (${e instanceof Error ? e.message : String(e)}); \`npm start\` will serve the terminal in a browser.`);
}
