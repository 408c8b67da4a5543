// The Electron shell: a thin adapter over the same main services the web host uses. One window
// factory with the security checklist applied, the app:// protocol serving the renderer with a
// strict CSP, one IPC door that checks the sender frame, native notifications on fills, the app
// menu, single-instance lock, window state, the embedded exchange as a utility process, and the
// vault passphrase prompt before the first window.
import { app, BrowserWindow, dialog, Menu, Notification, net, protocol, session, shell, utilityProcess, type IpcMainInvokeEvent, ipcMain } from 'electron';
import path from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { startTerminal, type RunningTerminal } from '../app/terminal';
import { SafeStorageBox } from './safe-storage-box';
import { passphraseFileArg } from './keychain';
import { PassphraseBox, vaultBox } from '../vault/secret-box';
import { passphraseForStart } from '../app/passphrase-prompt';
import { askPassphraseInWindow } from './passphrase-window';
import { passphraseFromFile } from '../host/passphrase';
import { APP_ORIGIN, APP_SCHEME, CONTENT_SECURITY_POLICY, isAllowedRequest, isOwnUrl, mainWindowOptions, permissionAllowed, popoutWindowOptions, windowOpenDecision } from './security';
import { loadWindowState, saveWindowState } from './window-state';
import { ALLOW_RESPONSE, confirmDialog } from './confirm-dialog';
import type { ChildLike } from '../embedded/launch';
import type { Notice, StreamName, StreamPayloads } from '../../src-shared/ipc/contract';

const here = path.dirname(fileURLToPath(import.meta.url));
const rendererDir = path.join(here, '../renderer');
const preloadPath = path.join(here, '../preload/index.cjs');
const exchangeEntry = path.join(here, 'exchange.js');

protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);

let mainWindow: BrowserWindow | null = null;
let terminal: RunningTerminal | null = null;

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (!mainWindow) return;
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  });
  app.whenReady().then(boot).catch((e: unknown) => {
    console.error('failed to start', e);
    app.exit(1);
  });
}

function emit<S extends StreamName>(stream: S, payload: StreamPayloads[S]): void {
  for (const w of BrowserWindow.getAllWindows()) if (!w.isDestroyed()) w.webContents.send('terminal:event', stream, payload);
  const notifyOnFill = terminal?.services.preferences.current().notifyOnFill ?? true;
  if (stream === 'notices' && Notification.isSupported()) {
    const n = payload as Notice;
    // alerts and local orders always; fills (and the rest) as the trader's setting says
    if (n.source === 'alert' || n.source === 'local' || notifyOnFill) new Notification({ title: n.title, body: n.body, silent: !(n.sound || n.level === 'error') }).show();
  }
}

function utilitySpawn(_command: string, args: string[], env: NodeJS.ProcessEnv): ChildLike {
  const child = utilityProcess.fork(exchangeEntry, args, { stdio: 'pipe', env, serviceName: 'Embedded exchange' });
  return {
    stdout: child.stdout,
    stderr: child.stderr,
    once: (event, listener) => child.once(event, listener),
    kill: () => child.kill(),
  };
}

async function boot(): Promise<void> {
  const userData = app.getPath('userData');
  hardenSessions();
  protocol.handle(APP_SCHEME, async (req) => {
    const url = new URL(req.url);
    const rel = url.pathname === '/' ? '/index.html' : decodeURIComponent(url.pathname);
    const file = path.resolve(rendererDir, '.' + rel);
    if (!file.startsWith(rendererDir + path.sep)) return new Response('not found', { status: 404 });
    const res = await net.fetch(pathToFileURL(file).toString());
    const headers = new Headers(res.headers);
    headers.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    headers.set('X-Content-Type-Options', 'nosniff');
    return new Response(res.body, { status: res.status, headers });
  });

  ipcMain.handle('terminal:call', async (event: IpcMainInvokeEvent, method: unknown, args: unknown) => {
    if (!isTrustedSender(event)) return { ok: false, error: { kind: 'state', message: 'refused: the call did not come from the terminal window' } };
    if (!terminal) return { ok: false, error: { kind: 'state', message: 'the terminal is still starting' } };
    return terminal.door(String(method), args);
  });

  // The vault's passphrase: from --passphrase-file, else asked in a window of its own when the
  // vault is locked by one, or offered when the OS keychain is only a fixed password.
  const platformBox = new SafeStorageBox();
  let passphrase: string | undefined;
  /** the box that checked a locked vault's passphrase: used as it is (scrypt runs once a start) */
  let unlocked: PassphraseBox | undefined;
  try {
    const file = passphraseFileArg(process.argv);
    passphrase =
      file !== undefined
        ? passphraseFromFile(path.resolve(file))
        : await passphraseForStart({ dir: userData, warning: platformBox.warning, ask: askPassphraseInWindow, check: (p) => void (unlocked = new PassphraseBox(platformBox, userData, p)) });
  } catch (err) {
    dialog.showErrorBox('Event Terminal', err instanceof Error ? err.message : String(err));
    app.exit(1);
    return;
  }

  terminal = await startTerminal({
    dataDir: userData,
    box: unlocked ?? vaultBox(platformBox, userData, passphrase),
    shell: 'electron',
    exchange: { command: process.execPath, args: [], spawnChild: utilitySpawn },
    emit,
    log: (m) => console.log(m),
    // re-pointing a key-holding profile, loosening a risk limit, releasing the kill switch: the
    // trader's word, asked natively by main (a compromised page cannot answer it)
    // the dialog shows the exact change its answer allows (`change`); the caller applies that
    // change only, and refuses when the state moved while the dialog was open
    confirmInMain: async (q) => {
      const r = await dialog.showMessageBox(confirmDialog(q));
      return r.response === ALLOW_RESPONSE;
    },
  });

  Menu.setApplicationMenu(buildMenu());
  mainWindow = createWindow(userData);
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) mainWindow = createWindow(userData);
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('before-quit', () => {
    void terminal?.stop();
  });
}

/** Only the main frame of one of our windows, showing our own origin, may call the door. */
function isTrustedSender(event: IpcMainInvokeEvent): boolean {
  const frame = event.senderFrame;
  if (!frame || frame !== event.sender.mainFrame) return false;
  if (!BrowserWindow.fromWebContents(event.sender)) return false;
  return isOwnUrl(frame.url);
}

function hardenSessions(): void {
  const s = session.defaultSession;
  s.setPermissionRequestHandler((_wc, permission, callback) => callback(permissionAllowed(permission)));
  s.setPermissionCheckHandler((_wc, permission) => permissionAllowed(permission));
  // No remote content: every request must be ours (app://) or devtools'.
  s.webRequest.onBeforeRequest((details, callback) => callback({ cancel: !isAllowedRequest(details.url) }));
  app.on('web-contents-created', (_e, contents) => {
    contents.on('will-navigate', (ev, url) => {
      if (!isOwnUrl(url)) ev.preventDefault();
    });
    contents.on('will-attach-webview', (ev) => ev.preventDefault());
    contents.setWindowOpenHandler(({ url }) => {
      const decision = windowOpenDecision(url);
      // Panel popouts: our own page only, in a window with the same sandboxed settings.
      if (decision === 'popout') return { action: 'allow', overrideBrowserWindowOptions: popoutWindowOptions(preloadPath) };
      // a known site of the exchange's goes to the user's browser; anything else goes nowhere
      if (decision === 'external') void shell.openExternal(url);
      return { action: 'deny' };
    });
  });
}

export function createWindow(userData: string): BrowserWindow {
  const state = loadWindowState(userData);
  const win = new BrowserWindow(mainWindowOptions(preloadPath, state));
  if (state?.maximized) win.maximize();
  win.once('ready-to-show', () => win.show());
  win.on('close', () => {
    const b = win.getNormalBounds();
    saveWindowState(userData, { ...b, maximized: win.isMaximized() });
  });
  void win.loadURL(`${APP_ORIGIN}/index.html`);
  return win;
}

function sendCommand(command: string): void {
  emit('commands', { command });
}

function buildMenu(): Menu {
  const isMac = process.platform === 'darwin';
  return Menu.buildFromTemplate([
    ...(isMac ? [{ role: 'appMenu' as const }] : []),
    { label: 'File', submenu: [isMac ? { role: 'close' as const } : { role: 'quit' as const }] },
    { role: 'editMenu' },
    {
      label: 'Trading',
      submenu: [
        { label: 'Command Palette', accelerator: 'CmdOrCtrl+K', click: () => sendCommand('palette') },
        { label: 'Cancel All in Market', accelerator: 'CmdOrCtrl+Shift+X', click: () => sendCommand('cancel-all-market') },
        { type: 'separator' },
        // engaged in main directly: it works even when the window is frozen or busy
        { label: 'Engage Kill Switch', accelerator: 'CmdOrCtrl+Shift+K', click: () => void terminal?.services.trading.engageKillSwitch().catch((e: unknown) => console.error('kill switch', e)) },
        { label: 'Release Kill Switch…', click: () => sendCommand('release-kill-switch') },
        { type: 'separator' },
        { label: 'Keyboard Shortcuts', accelerator: 'CmdOrCtrl+/', click: () => sendCommand('help') },
      ],
    },
    {
      label: 'View',
      submenu: [
        { label: 'Save Layout As…', click: () => sendCommand('save-layout-as') },
        { label: 'Layouts…', click: () => sendCommand('layouts') },
        { type: 'separator' },
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
        ...(app.isPackaged ? [] : [{ role: 'toggleDevTools' as const }]),
      ],
    },
    { role: 'windowMenu' },
  ]);
}
