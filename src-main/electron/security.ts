// Electron's security checklist as data, in one place: the options of every window the shell
// makes (the main window, panel popouts and the passphrase prompt), the permissions (denied by default), which requests
// may leave the app, and the navigation, new-window and external-link rules. main.ts applies
// these; security-checklist.test.ts holds them to the checklist item by item.
import type { BrowserWindowConstructorOptions, WebPreferences } from 'electron';

export const APP_SCHEME = 'app';
export const APP_ORIGIN = `${APP_SCHEME}://terminal`;
/** The one page a window may open: a dockview panel popped out into its own window. */
export const POPOUT_URL = `${APP_ORIGIN}/popout.html`;

export function secureWebPreferences(preload?: string): WebPreferences {
  return {
    ...(preload === undefined ? {} : { preload }),
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    spellcheck: false,
    safeDialogs: true,
  };
}

/** Permissions the renderer may have. Everything else is denied. */
export const ALLOWED_PERMISSIONS: ReadonlySet<string> = new Set(['clipboard-sanitized-write']);

export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'none'",
].join('; ');

const BACKGROUND = '#111418';
const TITLE = 'Event Terminal';

/** The window factory: the main window's options (size from the saved state). */
export function mainWindowOptions(preload: string, state?: { width: number; height: number; x: number; y: number } | null): BrowserWindowConstructorOptions {
  return {
    width: state?.width ?? 1600,
    height: state?.height ?? 960,
    ...(state ? { x: state.x, y: state.y } : {}),
    minWidth: 1024,
    minHeight: 640,
    show: false,
    backgroundColor: BACKGROUND,
    title: TITLE,
    webPreferences: secureWebPreferences(preload),
  };
}

/** A panel popped out into its own window: the same sandboxed settings. */
export function popoutWindowOptions(preload: string): BrowserWindowConstructorOptions {
  return { backgroundColor: BACKGROUND, title: TITLE, webPreferences: secureWebPreferences(preload) };
}

/**
 * The passphrase prompt (app/passphrase-prompt.ts), shown before the main window: the same
 * sandbox, no preload (it calls nothing) and no JavaScript at all (its form's submission is a
 * navigation main stops and reads).
 */
export function passphraseWindowOptions(): BrowserWindowConstructorOptions {
  return {
    width: 460,
    height: 390,
    useContentSize: true,
    resizable: false,
    minimizable: false,
    maximizable: false,
    fullscreenable: false,
    autoHideMenuBar: true,
    show: false,
    backgroundColor: BACKGROUND,
    title: TITLE,
    webPreferences: { ...secureWebPreferences(), javascript: false },
  };
}

/** Whether a permission request or check is granted. */
export function permissionAllowed(permission: string): boolean {
  return ALLOWED_PERMISSIONS.has(permission);
}

/** No remote content: a request may only go to our own scheme (and devtools, data:, blob:). */
export function isAllowedRequest(url: string): boolean {
  return url.startsWith(`${APP_SCHEME}:`) || url.startsWith('devtools:') || url.startsWith('data:') || url.startsWith('blob:');
}

/** Only our own pages may be shown in a window. */
export function isOwnUrl(url: string): boolean {
  return url.startsWith(`${APP_ORIGIN}/`);
}

/**
 * The only sites a link may open in the user's browser (shell.openExternal): the exchange's own
 * sites, by exact host, over https, on the default port, without credentials in the URL.
 */
export const EXTERNAL_HOSTS: ReadonlySet<string> = new Set(['kalshi.com', 'www.kalshi.com', 'docs.kalshi.com', 'help.kalshi.com', 'trading-api.readme.io']);

export function isExternalLink(url: string): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  return u.protocol === 'https:' && u.port === '' && u.username === '' && u.password === '' && EXTERNAL_HOSTS.has(u.hostname);
}

/** What a window.open / target=_blank does: a popout of ours, a known site in the browser, or nothing. */
export function windowOpenDecision(url: string): 'popout' | 'external' | 'deny' {
  if (url === POPOUT_URL) return 'popout';
  if (isExternalLink(url)) return 'external';
  return 'deny';
}
